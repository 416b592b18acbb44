// Small source patches to pinned npm packages, applied while bundling. Each replacement must
// match exactly once, so upgrading a package fails the build loudly instead of silently
// dropping a patch.
export interface Patch { readonly find: string; readonly replace: string }

export const PATCHES: Readonly<Record<string, readonly Patch[]>> = {
  // feross/buffer 6.0.3 lacks Node's 'base64url' encoding (JWTs and friends need it).
  // base64-js already decodes the URL-safe alphabet; encoding needs the translation.
  'buffer/index.js': [
    { find: "    case 'base64':\n    case 'ucs2':", replace: "    case 'base64':\n    case 'base64url':\n    case 'ucs2':" },
    // Buffer.byteLength(s, 'base64') is Node's estimate from the length, not the decoded size.
    {
      find: "      case 'base64':\n        return base64ToBytes(string).length",
      replace: "      case 'base64':\n      case 'base64url': {\n        let n = string.length\n        if (string.charCodeAt(n - 1) === 0x3D) n--\n        if (n > 1 && string.charCodeAt(n - 1) === 0x3D) n--\n        return (n * 3) >>> 2\n      }",
    },
    {
      find: "      case 'base64':\n        return base64Slice(this, start, end)\n",
      replace: "      case 'base64':\n        return base64Slice(this, start, end)\n\n      case 'base64url':\n        return base64Slice(this, start, end).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '')\n",
    },
    { find: "      case 'base64':\n        // Warning: maxLength", replace: "      case 'base64':\n      case 'base64url':\n        // Warning: maxLength" },
  ],
  // node-inspect-extracted 3.3.3 captures the statics of globals some engines lack (QuickJS has
  // no Atomics), and would throw on them.
  'node-inspect-extracted/dist/inspect.js': [
    { find: '["Atomics","JSON","Math","Proxy","Reflect"].forEach(t=>{y(globalThis[t],e,t)})', replace: '["Atomics","JSON","Math","Proxy","Reflect"].forEach(t=>{globalThis[t]&&y(globalThis[t],e,t)})' },
    // Its primordials table is built from the live globals when the part loads, i.e. possibly after
    // user code replaced them: use the table of boot-time captures instead (the original stays as
    // dead code, so the patch stays a small exact match).
    { find: '683(t){const e={__proto__:null},', replace: '683(t){t.exports=require("runjs-inspect-primordials");return;const e={__proto__:null},' },
  ],
};

export function applyPatches(key: string, source: string): string {
  let out = source;
  for (const p of PATCHES[key] ?? []) {
    const count = out.split(p.find).length - 1;
    if (count !== 1) throw new Error(`patch for ${key} matched ${count} times: ${JSON.stringify(p.find.slice(0, 60))}`);
    out = out.replace(p.find, () => p.replace);
  }
  return out;
}
