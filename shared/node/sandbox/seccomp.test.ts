import { strict as assert } from "node:assert";
import { unixSocketFilter, withSeccomp } from "./seccomp";

/** Runs the classic BPF program on one system call, as the kernel would (only the instructions it uses). */
function verdict(program: Buffer, call: { arch: number; nr: number; arg0: number; arg1?: number }): number {
  const word = (offset: number) => (offset === 0 ? call.nr : offset === 4 ? call.arch : offset === 16 ? call.arg0 : offset === 24 ? (call.arg1 ?? 0) : 0);
  let acc = 0;
  for (let pc = 0; pc < program.length / 8; ) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) {
      acc = word(k);
      pc++;
    }
    else if (code === 0x54) {
      acc = (acc & k) >>> 0;
      pc++;
    }
    else if (code === 0x15) pc += 1 + (acc === k ? jt : jf);
    else if (code === 0x35) pc += 1 + (acc >>> 0 >= k ? jt : jf);
    else if (code === 0x06) return k >>> 0;
    else throw new Error(`unexpected instruction ${code}`);
  }
  throw new Error("fell off the end");
}

describe("sandbox: the seccomp filter for a sandbox with the network on", () => {
  const x64 = { audit: 0xc000003e, socket: 41, socketpair: 53, connect: 42 };
  const program = unixSocketFilter("x64")!;

  it("refuses socket(AF_UNIX) with EPERM and lets every other call through", () => {
    assert.equal(verdict(program, { arch: x64.audit, nr: x64.socket, arg0: 1 }), 0x00050001);
    assert.equal(verdict(program, { arch: x64.audit, nr: x64.socket, arg0: 2 }), 0x7fff0000, "AF_INET");
    assert.equal(verdict(program, { arch: x64.audit, nr: x64.socketpair, arg0: 1 }), 0x7fff0000, "socketpair(AF_UNIX) for pipes to children");
    assert.equal(verdict(program, { arch: x64.audit, nr: x64.connect, arg0: 3 }), 0x7fff0000);
  });

  it("for omp sandboxed whole: datagram unix sockets allowed (its file lock), stream and others refused, whatever the flags", () => {
    const omp = unixSocketFilter("x64", { allowDatagram: true })!;
    const SOCK_STREAM = 1, SOCK_DGRAM = 2, SOCK_SEQPACKET = 5, CLOEXEC = 0x80000, NONBLOCK = 0x800;
    const socket = (arg0: number, arg1: number) => verdict(omp, { arch: x64.audit, nr: x64.socket, arg0, arg1 });
    assert.equal(socket(1, SOCK_DGRAM | CLOEXEC), 0x7fff0000, "omp's lock");
    assert.equal(socket(1, SOCK_DGRAM | NONBLOCK | CLOEXEC), 0x7fff0000);
    assert.equal(socket(1, SOCK_STREAM), 0x00050001, "X11, the session bus");
    assert.equal(socket(1, SOCK_STREAM | CLOEXEC), 0x00050001);
    assert.equal(socket(1, SOCK_SEQPACKET), 0x00050001);
    assert.equal(socket(1, 3), 0x00050001, "SOCK_RAW");
    assert.equal(socket(2, SOCK_STREAM), 0x7fff0000, "AF_INET");
    assert.equal(verdict(omp, { arch: 0x40000003, nr: 102, arg0: 1, arg1: SOCK_DGRAM }), 0x80000000, "i386 socketcall");
    assert.equal(verdict(omp, { arch: x64.audit, nr: 0x40000000 | x64.socket, arg0: 1, arg1: SOCK_DGRAM }), 0x80000000, "x32 socket");
    // The default filter refuses datagram ones too.
    assert.equal(verdict(program, { arch: x64.audit, nr: x64.socket, arg0: 1, arg1: SOCK_DGRAM }), 0x00050001);
  });

  it("kills a call of another architecture or of the x32 ABI (their numbers could pass the check)", () => {
    assert.equal(verdict(program, { arch: 0x40000003, nr: 102, arg0: 1 }), 0x80000000, "i386 socketcall");
    assert.equal(verdict(program, { arch: x64.audit, nr: 0x40000000 | x64.socket, arg0: 1 }), 0x80000000, "x32 socket");
  });

  it("has a program for arm64 too, and none for an architecture it does not know", () => {
    const arm = unixSocketFilter("arm64")!;
    assert.equal(verdict(arm, { arch: 0xc00000b7, nr: 198, arg0: 1 }), 0x00050001);
    assert.equal(unixSocketFilter("ia32"), undefined);
  });

  it("passes the filter to bwrap on fd 3, before the command, after a prefix that starts it (nsenter)", () => {
    const entered = withSeccomp(["/usr/bin/nsenter", "--user=/proc/7/ns/user", "--", "/usr/bin/bwrap"], ["--dev", "/dev", "--", "true"], "/f.bpf");
    assert.deepEqual(entered.args.slice(3), ["/f.bpf", "/usr/bin/nsenter", "--user=/proc/7/ns/user", "--", "/usr/bin/bwrap", "--dev", "/dev", "--seccomp", "3", "--", "true"]);
  });

  it("passes the filter to bwrap on fd 3, before the command", () => {
    const { file, args } = withSeccomp(["/usr/bin/bwrap"], ["--ro-bind", "/", "/", "--", "bash", "-c", "x"], "/tmp/pi-seccomp-1/f.bpf");
    assert.equal(file, "/bin/sh");
    assert.deepEqual(args.slice(3), ["/tmp/pi-seccomp-1/f.bpf", "/usr/bin/bwrap", "--ro-bind", "/", "/", "--seccomp", "3", "--", "bash", "-c", "x"]);
  });
});
