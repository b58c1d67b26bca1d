// The baselines of `npm run bench -- api`: node:http and `pg`, nothing else, in a process of their
// own like the app server, so neither shares an event loop with autocannon. Named (prepared)
// statements, as the app uses: PostgreSQL plans each once per connection in both.
// - GET /get_variables?client_id=: the same read as get_variables
//   (server/contacts/client-variables-service.ts).
// - POST /callback {client_id, message}: the writes of a callback to a bot whose start block
//   answers (server/public-api/actions/messaging.ts): the client's row locked for the event (one
//   event of a client at a time, as the engine's lease makes it), the message in, the answer,
//   the client's block, in one transaction.
import http from 'node:http';
import pg from 'pg';

const [url, projectId] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 10 });

const json = (res, status, body) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

async function getVariables(clientId, res) {
  const { rows } = await pool.query({
    name: 'variables',
    text: `SELECT 'client' AS scope, NULL AS name, NULL AS value FROM "Client" WHERE id = $1 AND "projectId" = $2
     UNION ALL
     SELECT 'deal', v.name, v.value FROM "DealVariable" v
       JOIN "Deal" d ON d.id = v."dealId"
       WHERE d."clientId" = $1 AND d."projectId" = $2 AND d."closedAt" IS NULL
     UNION ALL
     SELECT 'client', 'client.' || name, value FROM "ClientVariable" WHERE "clientId" = $1 AND "projectId" = $2`,
    values: [clientId, projectId],
  });
  json(res, 200, {
    status: 'success',
    variables: Object.fromEntries(rows.filter((r) => r.name !== null).map((r) => [r.name, r.value])),
  });
}

async function callback(body, res) {
  const { client_id: clientId, message } = JSON.parse(body);
  const db = await pool.connect();
  try {
    await db.query('BEGIN');
    const client = await db.query({
      name: 'lock',
      text: 'SELECT id FROM "Client" WHERE id = $1 AND "projectId" = $2 FOR UPDATE',
      values: [clientId, projectId],
    });
    if (!client.rows.length) {
      await db.query('ROLLBACK');
      return json(res, 404, { status: 'error' });
    }
    await db.query({
      name: 'in',
      text: `INSERT INTO "Message" ("projectId", "clientId", direction, text, "messageFromOutside") VALUES ($1, $2, 'in', $3, 1)`,
      values: [projectId, clientId, message],
    });
    const out = await db.query({
      name: 'out',
      text: `INSERT INTO "Message" ("projectId", "clientId", direction, text, "blockId", status) VALUES ($1, $2, 'out', 'ok', 1, 'sent') RETURNING id`,
      values: [projectId, clientId],
    });
    await db.query({
      name: 'state',
      text: `UPDATE "Client" SET "currentBlockId" = 1, "updatedAt" = now(), "lastMessageAt" = now() WHERE id = $1`,
      values: [clientId],
    });
    await db.query('COMMIT');
    json(res, 200, { status: 'success', client_id: clientId, message_id: Number(out.rows[0].id), sent: 1 });
  } catch (error) {
    await db.query('ROLLBACK').catch(() => {});
    json(res, 500, { status: 'error', message: String(error) });
  } finally {
    db.release();
  }
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/callback') {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => void callback(Buffer.concat(chunks).toString('utf8'), res));
    return;
  }
  void getVariables(Number(url.searchParams.get('client_id')), res);
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
