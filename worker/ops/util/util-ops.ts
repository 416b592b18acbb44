// node:util helpers computed by the host's node:util, so results and error texts are Node's:
// parseArgs (its config is plain data; the guest supplies the default args and rebuilds the
// null-prototype `values` and the tokens' undefined fields that JSON drops), and MIMEType's
// parser (the guest keeps the parsed type, subtype and parameters).
import { MIMEType, parseArgs } from 'node:util';
import { OpError, type OpFactory } from '../op-types.ts';

/** The capability's ops; they need no settings. */
export const createUtilOps: OpFactory = () => ({
  'util.mime': {
    kind: 'sync',
    run(args) {
      if (typeof args !== 'string') throw new OpError('util.mime expects a string', 'TypeError');
      try {
        const m = new MIMEType(args);
        return [m.type, m.subtype, [...m.params.entries()]];
      } catch (e) {
        throw new OpError(e instanceof Error ? e.message : String(e), e instanceof TypeError ? 'TypeError' : 'Error', (e as { code?: string }).code);
      }
    },
  },
  'util.parseArgs': {
    kind: 'sync',
    run(args) {
      if (typeof args !== 'object' || args === null) throw new OpError('util.parseArgs expects an object', 'TypeError');
      try {
        const { values, positionals, tokens } = parseArgs(args as Parameters<typeof parseArgs>[0]);
        return { values: { ...values }, positionals, tokens };
      } catch (e) {
        throw new OpError(e instanceof Error ? e.message : String(e), e instanceof TypeError ? 'TypeError' : 'Error', (e as { code?: string }).code);
      }
    },
  },
});
