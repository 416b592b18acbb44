/**
 * `--help` output, generated from the flag table so it cannot drift from
 * what the parser accepts. Flags whose feature has not landed are listed
 * (config files written for the full interface should be understandable)
 * but marked.
 */
import { defaultText, expectedShape, metavarOf, SPECS } from './describe-flag.ts';
import { GROUP_TITLES } from './flag-spec.ts';
import type { FlagGroup, FlagSpec } from './flag-spec.ts';

const NOT_YET = '[not supported yet]';

function usageLine(spec: FlagSpec): string {
  const metavar = metavarOf(spec);
  const value = metavar === '' ? '' : ` <${metavar}>`;
  const repeat = spec.repeatable ? (spec.commaSplit ? '  (repeatable, comma-separated)' : '  (repeatable)') : '';
  return `  --${spec.name}${value}${repeat}${spec.implemented ? '' : `  ${NOT_YET}`}`;
}

function detailLine(spec: FlagSpec): string {
  const parts: string[] = [];
  if (spec.kind !== 'boolean') parts.push(`value: ${expectedShape(spec)}`);
  const def = defaultText(spec);
  if (def !== undefined) parts.push(`default: ${def}`);
  if (spec.env.length > 0) parts.push(`env: ${spec.env.join(' or ')}`);
  return parts.length === 0 ? '' : `      ${parts.join('; ')}\n`;
}

export function helpText(programName = 'runjs-mcp'): string {
  const groups = new Map<FlagGroup, FlagSpec[]>();
  for (const spec of SPECS) groups.set(spec.group, [...(groups.get(spec.group) ?? []), spec]);
  let text =
    `Usage: ${programName} [--flag[=value] ...]\n\n` +
    'Sandboxed JavaScript/TypeScript execution over MCP (stdio, Streamable HTTP or SSE) and REST.\n' +
    'Each setting is taken from its flag, else its environment variable, else the --config file,\n' +
    'else its default. Boolean flags take no value or =true/=false. See docs/configuration.md.\n';
  for (const [group, specs] of groups) {
    text += `\n${GROUP_TITLES[group]}:\n`;
    for (const spec of specs) {
      text += `${usageLine(spec)}\n      ${spec.description}\n${detailLine(spec)}`;
    }
  }
  return text;
}
