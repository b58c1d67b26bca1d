// The baseline of `npm run bench -- api`: node:http and `pg`, nothing else, doing the same
// read as get_variables (server/contacts/client-variables-service.ts) for ?client_id=.
// Its own process, like the app server, so neither shares an event loop with autocannon. A named
// (prepared) statement, as the app uses: PostgreSQL plans it once per connection in both.
import http from 'node:http';
import pg from 'pg';

const [url, projectId] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 10 });
const server = http.createServer(async (req, res) => {
  const clientId = Number(new URL(req.url, 'http://x').searchParams.get('client_id'));
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
  res.setHeader('content-type', 'application/json');
  res.end(
    JSON.stringify({
      status: 'success',
      variables: Object.fromEntries(rows.filter((r) => r.name !== null).map((r) => [r.name, r.value])),
    }),
  );
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
