/**
 * Where `npm run dev` will serve, and whether something already listens there: checked before
 * anything is migrated or seeded, so a second `npm run dev` (or any server on 8787) is one line,
 * not a migration run followed by wrangler's stack trace.
 */
import { connect, createServer } from "node:net";

export const DEFAULT_IP = "127.0.0.1";
export const DEFAULT_PORT = 8787;

/**
 * The value of `--name <v>` or `--name=<v>` in `args` (the last one wins, as for wrangler).
 * @param {string[]} args
 * @param {string} name
 * @returns {string | undefined}
 */
function optionValue(args, name) {
  /** @type {string | undefined} */
  let value;
  args.forEach((arg, i) => {
    if (arg === name) value = args[i + 1];
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
  });
  return value;
}

/**
 * The address `wrangler dev` will listen on, from the arguments dev.mjs passes it.
 * @param {string[]} args
 * @returns {{ host: string, port: number }}
 */
export function listenAddress(args) {
  const port = optionValue(args, "--port");
  return {
    host: optionValue(args, "--ip") ?? DEFAULT_IP,
    port: port === undefined ? DEFAULT_PORT : Number(port),
  };
}

/**
 * Whether a server answers on host:port (a wildcard host is reached through the loopback).
 * @param {{ host: string, port: number }} address
 * @returns {Promise<boolean>}
 */
function answers({ host, port }) {
  const target = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  return new Promise((resolve) => {
    const socket = connect({ host: target, port });
    socket.setTimeout(1000);
    const done = (/** @type {boolean} */ open) => {
      socket.destroy();
      resolve(open);
    };
    socket.once("connect", () => done(true));
    socket.once("timeout", () => done(false));
    socket.once("error", () => done(false));
  });
}

/**
 * The error code of listening on host:port (EADDRINUSE, EACCES, …), or undefined when it can be
 * listened on. The test server is closed at once.
 * @param {{ host: string, port: number }} address
 * @returns {Promise<string | undefined>}
 */
function listenError({ host, port }) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (/** @type {NodeJS.ErrnoException} */ error) =>
      resolve(error.code ?? error.message),
    );
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}

/**
 * Why `wrangler dev` could not serve on this address, as one line for the terminal; undefined
 * when it can.
 * @param {{ host: string, port: number }} address
 * @returns {Promise<string | undefined>}
 */
export async function portProblem(address) {
  const { host, port } = address;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    return `--port ${port} is not a port number (0-65535)`;
  }
  const code = (await answers(address)) ? "EADDRINUSE" : await listenError(address);
  if (code === undefined) return undefined;
  const next = `npm run dev -- --port ${port === 65_535 ? port - 1 : port + 1}`;
  if (code === "EADDRINUSE") {
    return `port ${port} on ${host} is already in use (another npm run dev?): stop that server, or serve on another port: ${next}; nothing was migrated`;
  }
  return `cannot listen on ${host}:${port} (${code}): choose another address, e.g. ${next}; nothing was migrated`;
}
