// Runs inside a private network namespace that has only loopback: listens on 127.0.0.1:PORT,
// carries every connection to the Unix socket SOCK (which the study process serves from outside the
// namespace), starts the client once it listens, and exits with the client's exit code.
//
//   node netns-bridge.mjs SOCK PORT -- CLIENT ARGS...
//
// Plain JavaScript with no imports but node's own, so it starts fast and needs no loader.
import { spawn } from "node:child_process";
import { connect, createServer } from "node:net";

const [sock, portText, dashes, bin, ...args] = process.argv.slice(2);
if (sock === undefined || portText === undefined || dashes !== "--" || bin === undefined) {
  process.stderr.write("usage: node netns-bridge.mjs SOCK PORT -- CLIENT ARGS...\n");
  process.exit(2);
}

const server = createServer((inbound) => {
  const outbound = connect(sock);
  inbound.pipe(outbound);
  outbound.pipe(inbound);
  const close = () => {
    inbound.destroy();
    outbound.destroy();
  };
  inbound.on("error", close);
  outbound.on("error", close);
});

server.on("error", (error) => {
  process.stderr.write(`netns bridge: cannot listen on 127.0.0.1:${portText}: ${error.message}\n`);
  process.exit(70);
});

server.listen(Number(portText), "127.0.0.1", () => {
  const child = spawn(bin, args, { stdio: "inherit" });
  child.on("error", (error) => {
    const hint = error.code === "ENOENT" ? " (not installed? `npm run agents:install`)" : "";
    process.stderr.write(`netns bridge: cannot start ${bin}: ${error.message}${hint}\n`);
    process.exit(127);
  });
  child.on("exit", (code, signal) => {
    server.close();
    process.exit(code ?? 128 + (signal === "SIGKILL" ? 9 : signal === "SIGTERM" ? 15 : 1));
  });
});
