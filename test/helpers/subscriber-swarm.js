// Many graphql-ws subscribers in a process of their own, so that the test process (which runs
// the server) measures only the server's work. Started with fork(this file, [url, sockets,
// perSocket, query]); it reports { ready } once every subscribe message is sent, and
// { received } once the count the parent asked for ({ expect: n }) has arrived.
const WebSocket = require('ws');

const [url, sockets, perSocket, query] = process.argv.slice(2);
const opened = [];
let received = 0;
let expected = 0;
let acknowledged = 0;

function check() {
  if (expected > 0 && received >= expected) {
    expected = 0;
    process.send({ received });
  }
}

process.on('message', (message) => {
  if (message.expect) {
    expected = message.expect;
    check();
  }
  if (message.progress) process.send({ progress: received });
  if (message.close) {
    opened.forEach((socket) => socket.terminate());
    process.exit(0);
  }
});

for (let s = 0; s < Number(sockets); s += 1) {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  opened.push(socket);
  socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.type === 'connection_ack') {
      for (let i = 0; i < Number(perSocket); i += 1) {
        socket.send(JSON.stringify({ id: `${s}-${i}`, type: 'subscribe', payload: { query } }));
      }
      acknowledged += 1;
      if (acknowledged === Number(sockets)) process.send({ ready: true });
    } else if (message.type === 'next') {
      received += 1;
      check();
    } else if (message.type === 'error') {
      process.send({ error: message.payload });
    }
  });
  socket.on('close', (code) => process.send({ closed: code }));
}
