'use strict';
// Article C's example on its own stack: the login of step 8, hashed by
// Node's crypto the two ways the guide compares. The article ("tôi chỉ sơ
// lược lại các ý chính") retells the Node.js guide *Profiling Node.js
// Applications*: an endpoint that "gọi một hàm crypto.pbkdf2Sync()", then
// "Thay pbkdf2Sync() bằng pbkdf2() là hàm tương tự nhưng chạy bất đồng bộ",
// and "thông lượng tăng từ khoảng 5,3 lên 19,5 req/s". Written afresh; the
// guide's example is an Express app, so this is Express 5.
//
//   MODE=sync   crypto.pbkdf2Sync: the hash runs on the event loop, and
//               every other request waits for it
//   MODE=async  crypto.pbkdf2: the hash runs on libuv's thread pool
//               (UV_THREADPOOL_SIZE threads, Node's default 4), the event
//               loop goes on serving
//
// Routes, body and accounts are step 8's (steps/08-profiling, internal/
// accounts): POST /v1/login and /v2/login (the same handler here; the
// bench sends sync's load to /v1 and async's to /v2, as its Go rows do),
// {"email","password"} → 200 {"token","expires_in"}, 401 for a wrong
// password or unknown email, 429 once an account is locked; the demo
// users and the PBKDF2-HMAC-SHA256 work (iterations, 32-byte key) come
// from k6/lib/params.json, as the Go server's, so a login costs the same
// hashing on both stacks.
// Express shows a stack trace to the client on an error outside
// production; its answers stay its own, without the trace.
process.env.NODE_ENV ||= 'production';
const crypto = require('node:crypto');
const path = require('node:path');
const express = require('express');

const params = require(path.join(__dirname, '..', '..', 'k6', 'lib', 'params.json')).login;
const mode = process.env.MODE || 'sync';
if (mode !== 'sync' && mode !== 'async') throw new Error(`MODE=${mode}: want sync or async`);
const [host, port] = splitAddr(process.env.PEAKLOAD_ADDR || '127.0.0.1:18532');
const keyLen = 32;
const digest = 'sha256';

// derive is the only line the two modes differ by.
const derive = mode === 'sync'
  ? (password, salt) => Promise.resolve(crypto.pbkdf2Sync(password, salt, params.pbkdf2_iterations, keyLen, digest))
  : (password, salt) => new Promise((resolve, reject) =>
    crypto.pbkdf2(password, salt, params.pbkdf2_iterations, keyLen, digest, (err, key) => (err ? reject(err) : resolve(key))));

// The demo accounts of internal/given/accounts: user i's email, password and
// salt; only the derived key is kept. An unknown email is checked against
// a key no password gives, so it costs the same time.
const demoEmail = (i) => `user${String(i).padStart(2, '0')}@peakload.test`;
const users = new Map();
const nobody = { salt: Buffer.from('peakload-salt-nobody'), key: Buffer.alloc(keyLen) };

// The lockout of internal/given/accounts: after max_failures wrong passwords an
// account is refused. A guess is counted before its hash starts and
// forgiven when it proves right: with async hashing, concurrent guesses
// are in flight together, and counting only after the hash would let
// them all past the limit.
const failures = new Map();
async function login(email, password) {
  if ((failures.get(email) || 0) >= params.max_failures) return 429;
  failures.set(email, (failures.get(email) || 0) + 1);
  const u = users.get(email) || nobody;
  const key = await derive(password, u.salt);
  if (u === nobody || !crypto.timingSafeEqual(key, u.key)) return 401;
  failures.delete(email);
  return 200;
}

// A session token signed with this process's key: email.expiry.mac.
const signingKey = crypto.randomBytes(32);
function token(email, ttlS) {
  const body = `${Buffer.from(email).toString('base64url')}.${Math.floor(Date.now() / 1000) + ttlS}`;
  return `${body}.${crypto.createHmac('sha256', signingKey).update(body).digest('base64url')}`;
}

const app = express();
app.disable('x-powered-by');
app.get('/healthz', (req, res) => res.json({ ok: true, mode }));
// Bounded body: a login is a few dozen bytes; a malformed one gets
// Express's own answer (400 from its JSON parser, 413 past the limit).
app.use(express.json({ limit: '4kb' }));
const handler = async (req, res) => {
  const { email, password } = req.body || {};
  if (typeof email !== 'string' || typeof password !== 'string' || !email || !password) {
    return res.status(400).json({ message: 'invalid login body: want {"email","password"}, both non-empty' });
  }
  const status = await login(email, password);
  if (status === 401) return res.status(401).json({ message: 'wrong email or password' });
  if (status === 429) return res.status(429).json({ message: 'too many failed logins for this account: it is locked' });
  return res.json({ token: token(email, 3600), expires_in: 3600 });
};
app.post('/v1/login', handler);
app.post('/v2/login', handler);

async function main() {
  let server = null;
  const stop = (sig) => {
    console.log(`${sig}: closing the listener`);
    if (server === null) process.exit(0); // still deriving the demo keys: nothing to finish
    server.close(() => process.exit(0)); // waits for the logins in flight
    server.closeIdleConnections();
    // A client that keeps its connection busy cannot hold the exit for
    // ever: nothing is buffered here, the logins in flight get 10 s.
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  await Promise.all(Array.from({ length: params.users }, async (_, i) => {
    const salt = Buffer.from(`peakload-salt-${String(i).padStart(2, '0')}`);
    users.set(demoEmail(i), { salt, key: await derive(`correct horse battery staple ${i}`, salt) });
  }));
  server = app.listen(port, host, () => console.log(
    `login (Express ${require('express/package.json').version}, Node ${process.versions.node}) on ${host}:${port}: ` +
    `MODE=${mode}, UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE || '4 (default)'}, ${params.pbkdf2_iterations} iterations`));
}

function splitAddr(addr) {
  const i = addr.lastIndexOf(':');
  return [addr.slice(0, i) || '127.0.0.1', Number(addr.slice(i + 1))];
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
