// The reference pipeline of ../shared/bench/PIPELINE.md (job-1m.yaml) as one DuckDB SQL statement,
// run as its own process: node duckdb-pipeline.mjs IN.csv OUT.csv [threads]
import { DuckDBInstance } from '@duckdb/node-api';

const [input, output, threads = '2'] = process.argv.slice(2);
const q = (s) => `'${s.replaceAll("'", "''")}'`;
const instance = await DuckDBInstance.create(':memory:', { threads });
const connection = await instance.connect();
// Title case of a generated name (letters only): first letter upper, the rest lower.
const title = (c) => `upper(${c}[1]) || lower(${c}[2:])`;
await connection.run(`
COPY (
  WITH raw AS (
    SELECT *, row_number() OVER () AS rn FROM read_csv(${q(input)}, header = true, all_varchar = true, quote = '"', escape = '"')
  ),
  kept AS (
    SELECT * FROM raw WHERE nullif(trim(email), '') IS NOT NULL
    QUALIFY row_number() OVER (PARTITION BY TRY_CAST(id AS DOUBLE) ORDER BY rn) = 1
  )
  SELECT
    TRY_CAST(id AS DOUBLE) AS customer_id,
    ${title('first_name')} || ' ' || ${title('last_name')} AS full_name,
    email,
    regexp_replace(phone, '[^0-9]', '', 'g') AS phone,
    TRY_CAST(replace(amount, ',', '') AS DOUBLE) AS amount,
    upper(coalesce(nullif(trim(country), ''), 'US')) AS country,
    strftime(TRY_CAST(created_at AS TIMESTAMP) + INTERVAL 5 HOUR, '%Y-%m-%dT%H:%M:%S') AS created_at_utc,
    notes,
    status
  FROM kept ORDER BY rn
) TO ${q(output)} (HEADER, DELIMITER ',')`);
