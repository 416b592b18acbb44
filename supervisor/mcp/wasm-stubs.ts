// WASM stub tools (`--wasm-stubs`, on by default when modules are loaded): each configured module
// is listed as `<prefix>wasm__<name>` so an agent browsing tools/list learns it exists and how to
// use it. Calling a stub runs nothing: it answers with the instructions to use the module from
// `run_js` (the reference's texts, docs/wasm.md).
import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { defineTool, type ToolDef } from './tool-kit.ts';

export interface WasmStubModule {
  readonly name: string;
  readonly description: string | undefined;
  /** No imports: its exports are bound as the global `<name>`. */
  readonly bound: boolean;
  readonly exports: readonly string[];
  readonly functions: readonly string[];
}

function description(m: WasmStubModule): string {
  const parts = [
    `[stub for the WASM module "${m.name}" — use it from JavaScript via the run_js tool. Calling this tool directly only returns instructions; it does not execute.]`,
  ];
  if (m.description !== undefined && m.description !== '') parts.push(m.description);
  parts.push(m.bound
    ? `In run_js, \`__wasm_${m.name}\` is the compiled WebAssembly.Module and \`${m.name}\` its instance's exports (the module has no imports), e.g. \`${m.name}.${m.exports[0] ?? 'fn'}(…)\`.`
    : `In run_js, \`__wasm_${m.name}\` is the compiled WebAssembly.Module; instantiate it with its imports: \`new WebAssembly.Instance(__wasm_${m.name}, imports)\`.`);
  parts.push(`Exports: ${m.exports.length > 0 ? m.exports.join(', ') : '(none)'}.`);
  return parts.join('\n\n');
}

function answer(m: WasmStubModule, args: Record<string, unknown>): CallToolResult {
  const example = m.bound
    ? `console.log(${m.name}.${m.functions[0] ?? 'fn'}(/* arguments */));`
    : `const instance = new WebAssembly.Instance(__wasm_${m.name}, { /* imports */ });\nconsole.log(instance.exports.${m.functions[0] ?? 'fn'}(/* arguments */));`;
  const lines = [
    `This tool is a stub for the WASM module "${m.name}". Execute it from JavaScript via the \`run_js\` tool, e.g.:`,
    '',
    example,
    '',
    `Available exports: ${m.exports.length > 0 ? m.exports.join(', ') : '(none)'}.`,
  ];
  if (Object.keys(args).length > 0) lines.push('', `Arguments passed: ${JSON.stringify(args)}`);
  return { content: [{ type: 'text', text: lines.join('\n') }] };
}

export function wasmStubTools(modules: readonly WasmStubModule[], prefix: string): ToolDef[] {
  return modules.map((m) => defineTool({
    name: `${prefix}wasm__${m.name}`,
    title: `WASM module ${m.name} (stub)`,
    description: description(m),
    input: z.looseObject({}),
    annotations: { readOnlyHint: true, openWorldHint: false },
    handle: (args) => answer(m, args as Record<string, unknown>),
  }));
}
