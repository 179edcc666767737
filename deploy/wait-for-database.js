// Waits until the PostgreSQL server of DATABASE_URL accepts a connection (deploy/image.sh start), so a Herald
// started beside a database that is still initialising waits for it instead of exiting. Gives up after the number
// of seconds given as its argument (default 120) with the last error, without the URL's password.
import pg from 'pg';

const deadline = Date.now() + Number(process.argv[2] ?? 120) * 1000;
let last = '';
let said = false;
for (;;) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    await client.end();
    process.exit(0);
  } catch (err) {
    last = err instanceof Error ? err.message : String(err);
    await client.end().catch(() => {});
  }
  if (Date.now() > deadline) {
    console.error(`herald: the database did not accept connections in time (${last})`);
    process.exit(1);
  }
  if (!said) console.error('herald: waiting for the database…');
  said = true;
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
