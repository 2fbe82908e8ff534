#!/usr/bin/env node
// The images' HEALTHCHECK: `node bin/healthcheck.mjs PORT /readyz` asks
// http://127.0.0.1:$PORT/readyz and exits 0 on a 2xx answer, 1 on anything else (Docker's
// "unhealthy"). It takes the variable's name, not a port, so that a port changed with
// `docker run -e PORT=…` is still the port asked; one script keeps the three targets' probes alike.
const [portVariable, path] = process.argv.slice(2);
const port = process.env[portVariable ?? ''];
if (!port || !path?.startsWith('/')) {
  console.error(`usage: healthcheck.mjs <port variable> </path> (${portVariable ?? 'no variable'}=${port ?? 'unset'}, path ${path ?? 'unset'})`);
  process.exit(1);
}
fetch(`http://127.0.0.1:${port}${path}`).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
