// The reference pipeline (job-1m.yaml) in DuckDB SQL, run as its own process: node duckdb-pipeline.mjs IN.csv OUT.csv
import { DuckDBInstance } from '@duckdb/node-api';

const [input, output] = process.argv.slice(2);
const q = (s) => `'${s.replaceAll("'", "''")}'`;
const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
const connection = await instance.connect();
const title = (c) => `upper(${c}[1]) || lower(${c}[2:])`;
await connection.run(`
COPY (
  WITH raw AS (
    SELECT *, row_number() OVER () AS rn FROM read_csv(${q(input)}, header = true, all_varchar = true, quote = '"', escape = '"')
  ),
  typed AS (
    SELECT rn,
      TRY_CAST(id AS DOUBLE) AS id, first_name, last_name, nullif(trim(email), '') AS email, phone,
      TRY_CAST(replace(replace(amount, ',', ''), '$', '') AS DOUBLE) AS amount,
      coalesce(nullif(trim(country), ''), 'us') AS country,
      strftime(TRY_CAST(created_at AS TIMESTAMP), '%Y-%m-%dT%H:%M:%S') AS created_at, notes, status
    FROM raw
  ),
  cleaned AS (
    SELECT rn, id, ${title('first_name')} AS first_name, ${title('last_name')} AS last_name, email,
      regexp_replace(phone, '[^0-9]', '', 'g') AS phone, amount, upper(country) AS country, created_at, notes, status
    FROM typed
  ),
  dedup AS (SELECT * FROM cleaned QUALIFY row_number() OVER (PARTITION BY id ORDER BY rn) = 1)
  SELECT id, first_name, last_name, email, phone, amount, country, created_at, notes, status
  FROM dedup WHERE email IS NOT NULL ORDER BY rn
) TO ${q(output)} (HEADER, DELIMITER ',')`);
