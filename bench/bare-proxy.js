// The peer of `docproc proxy` in the proxy benchmark: a bare Node reverse proxy that pipes each request
// and answer through with a keep-alive agent and does nothing else (no judging, no copies). What
// `docproc proxy` costs beyond it is what judging every exchange costs.
import { Agent, createServer, request } from 'node:http';

const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
const target = new URL(process.argv[process.argv.indexOf('--target') + 1]);
const agent = new Agent({ keepAlive: true });

createServer((req, res) => {
  const upstream = request(
    {
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, host: target.host },
      agent,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
}).listen(port, '127.0.0.1');
