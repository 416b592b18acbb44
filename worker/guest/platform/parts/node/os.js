// node:os with fixed, documented values: runjs scripts see one small Linux machine, not the host.
const cpu = { model: 'runjs virtual CPU', speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } };
const signals = {
  SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGIOT: 6, SIGBUS: 7, SIGFPE: 8, SIGKILL: 9,
  SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15, SIGCHLD: 17, SIGSTKFLT: 16, SIGCONT: 18, SIGSTOP: 19,
  SIGTSTP: 20, SIGTTIN: 21, SIGTTOU: 22, SIGURG: 23, SIGXCPU: 24, SIGXFSZ: 25, SIGVTALRM: 26, SIGPROF: 27, SIGWINCH: 28,
  SIGIO: 29, SIGPOLL: 29, SIGPWR: 30, SIGSYS: 31,
};

export const os = {
  EOL: '\n',
  devNull: '/dev/null',
  arch: () => 'x64',
  platform: () => 'linux',
  type: () => 'Linux',
  release: () => '6.0.0-runjs',
  version: () => '#1 SMP runjs',
  machine: () => 'x86_64',
  hostname: () => 'runjs',
  homedir: () => '/home/runjs',
  tmpdir: () => '/tmp',
  endianness: () => 'LE',
  cpus: () => [structuredClone(cpu)],
  availableParallelism: () => 1,
  totalmem: () => 1073741824,
  freemem: () => 536870912,
  uptime: () => Math.floor(process.uptime()),
  loadavg: () => [0, 0, 0],
  networkInterfaces: () => ({}),
  userInfo: () => ({ uid: 1000, gid: 1000, username: 'runjs', homedir: '/home/runjs', shell: '/bin/sh' }),
  getPriority: () => 0,
  setPriority: () => {},
  constants: { signals, errno: {}, priority: { PRIORITY_LOW: 19, PRIORITY_BELOW_NORMAL: 10, PRIORITY_NORMAL: 0, PRIORITY_ABOVE_NORMAL: -7, PRIORITY_HIGH: -14, PRIORITY_HIGHEST: -20 } },
};
