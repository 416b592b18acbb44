// The gRPC service of the acceptance tests: a Greeter with a unary `SayHello` and a
// server-streaming `SayHellos`, served by the host's own @grpc/grpc-js on 127.0.0.1, and the
// script that calls it from inside the sandbox with grpc-js and proto-loader imported via `npm:`
// (the proto definition as JSON, through proto-loader's fromJSON: a script reads no files).
import type * as Grpc from '@grpc/grpc-js';
import type { PackageDefinition, fromJSON } from '@grpc/proto-loader';

export const GREETER_PROTO: Parameters<typeof fromJSON>[0] = {
  nested: {
    hello: {
      nested: {
        Greeter: {
          methods: {
            SayHello: { requestType: 'HelloRequest', responseType: 'HelloReply', comment: '' },
            SayHellos: { requestType: 'HelloRequest', responseType: 'HelloReply', responseStream: true, comment: '' },
          },
        },
        HelloRequest: { fields: { name: { type: 'string', id: 1 }, times: { type: 'int32', id: 2 } } },
        HelloReply: { fields: { message: { type: 'string', id: 1 } } },
      },
    },
  },
};

interface HelloCall { request: { name: string; times: number } }

export async function startGreeter(grpc: typeof Grpc, definition: PackageDefinition, credentials = grpc.ServerCredentials.createInsecure()): Promise<{ port: number; close(): void }> {
  const pkg = grpc.loadPackageDefinition(definition) as unknown as { hello: { Greeter: { service: Grpc.ServiceDefinition } } };
  const server = new grpc.Server();
  server.addService(pkg.hello.Greeter.service, {
    SayHello: (call: HelloCall, callback: (e: null, reply: { message: string }) => void) => callback(null, { message: `Hello, ${call.request.name}` }),
    SayHellos: (call: HelloCall & { write(m: { message: string }): void; end(): void }) => {
      for (let i = 1; i <= call.request.times; i++) call.write({ message: `Hello #${i}, ${call.request.name}` });
      call.end();
    },
  });
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', credentials, (e, p) => (e ? reject(e) : resolve(p))));
  return { port, close: () => server.forceShutdown() };
}

/**
 * The guest script. `calls`: the unary and the streaming call's replies, `[one, many]`. `error`:
 * the unary call's error as `[code, details]` (details without grpc-js's timestamp).
 */
export function greeterScript(target: string, expect: 'calls' | 'error' = 'calls', credentials = 'grpc.credentials.createInsecure()'): string {
  const unary = expect === 'calls'
    ? "(e, r) => (e ? reject(e) : resolve(r.message))"
    : "(e) => resolve([e.code, e.details.replace(/ \\(\\d{4}-\\d\\d-\\d\\dT[^)]*\\)/, '')])";
  return `import * as grpc from 'npm:@grpc/grpc-js';
import * as protoLoader from 'npm:@grpc/proto-loader';
const { hello } = grpc.loadPackageDefinition(protoLoader.fromJSON(${JSON.stringify(GREETER_PROTO)}, {}));
const client = new hello.Greeter(${JSON.stringify(target)}, ${credentials});
const one = await new Promise((resolve, reject) => client.SayHello({ name: 'runjs' }, ${unary}));
${expect === 'calls' ? `const many = await new Promise((resolve, reject) => {
  const got = [];
  const call = client.SayHellos({ name: 'stream', times: 3 });
  call.on('data', (m) => got.push(m.message));
  call.on('error', reject);
  call.on('end', () => resolve(got));
});
client.close();
[one, many]` : 'client.close();\none'}
`;
}
