import { connect } from 'node:net';

// `node --import tsx test/support/idle-flood.ts <port> <connections> [fromAddress]`: holds that many
// connections to 127.0.0.1:<port> open from one address, half of them sending nothing and half
// sending half a request header, each reopened as soon as the server closes it. Prints
// `open <n> opened <total>` every 250 ms until it is killed.
const [port, count, from = '127.0.0.1'] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4]];
let open = 0;
let opened = 0;

function hold(i: number): void {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from }, () => {
    open++;
    opened++;
    if (i % 2 === 1) socket.write('GET /api/v1/documents/get_documents HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-');
  });
  let counted = true;
  socket.on('connect', () => (counted = false));
  socket.on('error', () => {});
  socket.on('close', () => {
    if (!counted) open--;
    counted = true;
    setImmediate(() => hold(i));
  });
}

for (let i = 0; i < count; i++) hold(i);
setInterval(() => process.stdout.write(`open ${open} opened ${opened}\n`), 250);
