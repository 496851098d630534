/**
 * A seccomp filter (classic BPF, as bubblewrap's `--seccomp FD` takes it) for sandboxes that share
 * the host's network namespace (the network on): it refuses `socket(AF_UNIX, …)` with EPERM.
 * Abstract unix sockets (X11's `@/tmp/.X11-unix/X0`, an abstract session bus) have no file, so
 * hiding paths cannot reach them, and they belong to the network namespace: with the network off
 * the sandbox has a namespace of its own and needs no filter. `socketpair()` stays allowed (pipes
 * between a process and its children: libuv, Python's multiprocessing), as in
 * `@anthropic-ai/sandbox-runtime`. A system call of another architecture (32-bit compat, x32) is
 * refused outright: its numbers and arguments differ, so it could bypass the check.
 *
 * `allowDatagram`: datagram unix sockets stay allowed, for an agent sandboxed whole that locks its
 * files by binding an abstract datagram name (omp's native file lock: without it omp saved no
 * session). What the filter is for (X11, the session bus) speaks streams; a datagram socket could
 * still send to a host service listening on datagrams (the journal), so only that agent gets it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The architecture's audit id and `socket`'s system call number; undefined: no filter for it. */
const archs: Partial<Record<NodeJS.Architecture, { audit: number; socket: number }>> = {
  x64: { audit: 0xc000003e, socket: 41 },
  arm64: { audit: 0xc00000b7, socket: 198 },
};

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;
const BPF_ALU_AND_K = 0x54;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO_EPERM = 0x00050000 | 1;
const RET_KILL_PROCESS = 0x80000000;
const X32_SYSCALL_BIT = 0x40000000;
const AF_UNIX = 1;
const SOCK_DGRAM = 2;
/** socket()'s type without SOCK_NONBLOCK (0x800) and SOCK_CLOEXEC (0x80000). */
const SOCK_TYPE_MASK = 0xf;
// struct seccomp_data: nr (u32) at 0, arch (u32) at 4, args[0] and args[1] (u64, low half first) at 16 and 24.
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;
const ARG1_LOW = 24;

/** The filter for this machine's architecture, as bytes (struct sock_filter[]), or undefined where it has none. */
export function unixSocketFilter(arch: NodeJS.Architecture = process.arch, options: { allowDatagram?: boolean } = {}): Buffer | undefined {
  const ids = archs[arch];
  if (!ids) return undefined;
  // [code, jt, jf, k]: jt/jf count instructions skipped after this one.
  const program: [number, number, number, number][] = options.allowDatagram
    ? [
        [BPF_LD_W_ABS, 0, 0, ARCH], // 0
        [BPF_JEQ_K, 0, 10, ids.audit], // 1: another architecture → 12 (kill)
        [BPF_LD_W_ABS, 0, 0, NR], // 2
        [BPF_JGE_K, 8, 0, X32_SYSCALL_BIT], // 3: x32 → 12 (kill)
        [BPF_JEQ_K, 0, 5, ids.socket], // 4: not socket() → 10 (allow)
        [BPF_LD_W_ABS, 0, 0, ARG0_LOW], // 5: the domain
        [BPF_JEQ_K, 0, 3, AF_UNIX], // 6: not AF_UNIX → 10 (allow)
        [BPF_LD_W_ABS, 0, 0, ARG1_LOW], // 7: the type, with its flags (SOCK_CLOEXEC, SOCK_NONBLOCK)
        [BPF_ALU_AND_K, 0, 0, SOCK_TYPE_MASK], // 8
        [BPF_JEQ_K, 0, 1, SOCK_DGRAM], // 9: SOCK_DGRAM → 10 (allow), else 11 (EPERM)
        [BPF_RET_K, 0, 0, RET_ALLOW], // 10
        [BPF_RET_K, 0, 0, RET_ERRNO_EPERM], // 11
        [BPF_RET_K, 0, 0, RET_KILL_PROCESS], // 12
      ]
    : [
        [BPF_LD_W_ABS, 0, 0, ARCH], // 0
        [BPF_JEQ_K, 0, 7, ids.audit], // 1: another architecture → 9 (kill)
        [BPF_LD_W_ABS, 0, 0, NR], // 2
        [BPF_JGE_K, 5, 0, X32_SYSCALL_BIT], // 3: x32 → 9 (kill)
        [BPF_JEQ_K, 0, 2, ids.socket], // 4: not socket() → 7 (allow)
        [BPF_LD_W_ABS, 0, 0, ARG0_LOW], // 5: the domain
        [BPF_JEQ_K, 1, 0, AF_UNIX], // 6: AF_UNIX → 8 (EPERM)
        [BPF_RET_K, 0, 0, RET_ALLOW], // 7
        [BPF_RET_K, 0, 0, RET_ERRNO_EPERM], // 8
        [BPF_RET_K, 0, 0, RET_KILL_PROCESS], // 9
      ];
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    bytes.writeUInt16LE(code, i * 8);
    bytes.writeUInt8(jt, i * 8 + 2);
    bytes.writeUInt8(jf, i * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return bytes;
}

const filterFiles = new Map<boolean, string>();

/**
 * The filter as a file bubblewrap reads through fd 3, written once per process (and variant) in a
 * private folder of its own (0700): never under the sandbox's /tmp, which its commands can write.
 */
export function unixSocketFilterFile(options: { allowDatagram?: boolean } = {}): string | undefined {
  const allowDatagram = options.allowDatagram === true;
  const known = filterFiles.get(allowDatagram);
  if (known) return known;
  const bytes = unixSocketFilter(process.arch, { allowDatagram });
  if (!bytes) return undefined;
  const file = join(mkdtempSync(join(tmpdir(), "pi-seccomp-")), allowDatagram ? "no-unix-stream-sockets.bpf" : "no-unix-sockets.bpf");
  writeFileSync(file, bytes, { mode: 0o600 });
  filterFiles.set(allowDatagram, file);
  return file;
}

/** `bwrap …` (after a prefix: nsenter, home-keeper.ts) run with the filter on fd 3 (`--seccomp 3`): a tiny sh opens it and execs the command in its place. */
export function withSeccomp(bwrap: readonly string[], args: readonly string[], filter: string): { file: string; args: string[] } {
  const separator = args.indexOf("--");
  const options = separator < 0 ? [...args] : args.slice(0, separator);
  const rest = separator < 0 ? [] : args.slice(separator);
  return { file: "/bin/sh", args: ["-c", 'f=$1; shift; exec "$@" 3<"$f"', "sh", filter, ...bwrap, ...options, "--seccomp", "3", ...rest] };
}
