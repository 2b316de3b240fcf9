import { chmod, mkdtemp, readFile, stat, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyChoices, checkSavable, saveChoices } from '../../src/jobfile/save.js';

// Odd on purpose: four-space indents, aligned comments, a quoted key, `~`, an empty value,
// a flow map with spaces before the colon, a flow list over two lines, a trailing comment.
const ODD = `# Customers -> pl_customers
version:   1
pipeline: pl_customers
input:
    file: ./customers.csv      # four-space indent
config:
    mapping:
        "Customer ID":   id        # quoted key, aligned comment
        First: full_name
        Internal Notes: ~          # never leaves the building
        Tel:
    # a comment between sections
    dataTypes: { amount : number }
    impute:
        country:
            method: fill
            value: US
review: {minConfidence: 0.8}
schema:
  expectedFields: [id, full_name, email, amount,
                   country, created_at, phone]
# trailing comment
`;

/** `text` with each [from, to] replaced once (and the `from` required to be there exactly once). */
function edit(text: string, ...pairs: [string, string][]): string {
  for (const [from, to] of pairs) {
    expect(text.split(from).length - 1, `"${from}" occurs once`).toBe(1);
    text = text.replace(from, to);
  }
  return text;
}

describe('applyChoices', () => {
  it('changes values in place, adds new keys at the end of their map, and keeps every other byte', () => {
    const out = applyChoices(ODD, {
      mapping: { 'Customer ID': 'id', First: 'name', 'Internal Notes': null, Tel: 'phone', 'E-mail Address': 'email', 'Odd: key #1': 'x' },
      dataTypes: { amount: 'rich_text', created_at: 'date_time' },
      impute: { country: { method: 'dropMissing' } },
    });
    expect(out).toBe(edit(ODD,
      ['        First: full_name\n', '        First: name\n'],
      ['        Tel:\n', '        Tel: phone\n        E-mail Address: email\n        "Odd: key #1": x\n'],
      ['{ amount : number }', '{ amount : rich_text, created_at: date_time }'],
      ['            method: fill\n            value: US\n', '            method: dropMissing\n'],
    ));
  });

  it('edits a block map value member by member, so the lines that keep their value keep their comments', () => {
    const text = `config:
  impute:
    country:            # the sales team asked for US
      method: fill      # not dropMissing: rows without a country still count
      value: US
  combining:
    full_name:
      method: stringAppend
      separator: " "    # one space
      order: [First, Last]
`;
    const out = applyChoices(text, {
      impute: { country: { method: 'fill', value: 'CA' } },
      combining: { full_name: { method: 'stringAppend', separator: ' ', order: ['Last', 'First'] } },
    });
    expect(out).toBe(edit(text, ['      value: US\n', '      value: CA\n'], ['order: [First, Last]', 'order: [Last, First]']));
    // A member no longer in the value goes; a new one goes at the end.
    expect(applyChoices(text, { impute: { country: { method: 'dropMissing' } }, combining: { full_name: { method: 'json', order: ['First', 'Last'] } } }))
      .toBe(edit(text,
        ['      method: fill      # not', '      method: dropMissing      # not'], ['      value: US\n', ''],
        ['      method: stringAppend\n', '      method: json\n'], ['      separator: " "    # one space\n', '']));
  });

  it('reads a byte-order mark as no indentation: a block added after a first-line key starts at column 0', () => {
    expect(applyChoices('\uFEFFversion: 1\n', { mapping: { A: 'id' } })).toBe('\uFEFFversion: 1\nconfig:\n  mapping:\n    A: id\n');
    expect(applyChoices('\uFEFFconfig:\n  mapping:\n    A: id\n', { mapping: { B: 'x' } })).toBe('\uFEFFconfig:\n  mapping:\n    A: id\n    B: x\n');
  });

  it('returns the text unchanged when the file already holds every choice', () => {
    const out = applyChoices(ODD, { mapping: { 'Customer ID': 'id', First: 'full_name', 'Internal Notes': null }, dataTypes: { amount: 'number' }, impute: { country: { method: 'fill', value: 'US' } } });
    expect(out).toBe(ODD);
  });

  it('adds a missing section at the end of config, indented like the file', () => {
    const text = 'version: 1\nconfig:\n    sheet: Orders   # the big one\nreview:\n    minConfidence: 0.8\n';
    expect(applyChoices(text, { mapping: { A: 'a', 'B c': null } })).toBe(
      'version: 1\nconfig:\n    sheet: Orders   # the big one\n    mapping:\n        A: a\n        B c: null\nreview:\n    minConfidence: 0.8\n',
    );
  });

  it('adds config at the end of the file when there is none, after the last key and before trailing comments', () => {
    const text = '# job\nversion: 1\ninput:\n  file: a.csv\n# the end\n';
    expect(applyChoices(text, { mapping: { A: 'a' }, impute: { a: { method: 'fill', value: 0 } } })).toBe(
      '# job\nversion: 1\ninput:\n  file: a.csv\nconfig:\n  mapping:\n    A: a\n  impute:\n    a: {method: fill, value: 0}\n# the end\n',
    );
  });

  it('fills an empty config and an empty flow map', () => {
    expect(applyChoices('version: 1\nconfig:\n', { mapping: { A: 'a' } })).toBe('version: 1\nconfig:\n  mapping:\n    A: a\n');
    expect(applyChoices('version: 1\nconfig: # later\nrun: {}\n', { dataTypes: { a: 'number' } }))
      .toBe('version: 1\nconfig: # later\n  dataTypes:\n    a: number\nrun: {}\n');
    expect(applyChoices('config: null  # c\n', { mapping: { A: 'a' } })).toBe('config:   # c\n  mapping:\n    A: a\n');
    expect(applyChoices('config:', { mapping: { A: 'a' } })).toBe('config:\n  mapping:\n    A: a\n');
    expect(applyChoices('config:\n  mapping: {}\n', { mapping: { A: 'a' } })).toBe('config:\n  mapping: {A: a}\n');
  });

  it('quotes keys and values that YAML would read as something else', () => {
    const out = applyChoices('config:\n  mapping:\n    x: y\n', { mapping: { '1001': 'id', 'null': 'n', 'a: b': 'true', '#tag': 'x' } });
    expect(out).toBe('config:\n  mapping:\n    x: y\n    "1001": id\n    "null": n\n    "a: b": "true"\n    "#tag": x\n');
  });

  it('keeps CRLF line endings and a missing final newline', () => {
    expect(applyChoices('config:\r\n  mapping:\r\n    A: a\r\n', { mapping: { B: 'b' } })).toBe('config:\r\n  mapping:\r\n    A: a\r\n    B: b\r\n');
    expect(applyChoices('config:\n  mapping:\n    A: a', { mapping: { A: 'z', B: 'b' } })).toBe('config:\n  mapping:\n    A: z\n    B: b\n');
  });

  it('sets the sheet in place', () => {
    expect(applyChoices('config:\n  sheet: "Old"  # x\n', { sheet: 'New one' })).toBe('config:\n  sheet: New one  # x\n');
  });
});

describe('applyChoices on values written as something else', () => {
  // An anchor in the schema, an alias in the mapping; keys YAML reads as numbers (1000 and 8).
  const JOB = `schema:
  expectedFields: [&pl plan, email, amount, code]
config:
  mapping:
    Contact: \${EMAIL_FIELD}   # differs per environment
    Plan: *pl
    1e3: amount      # column "1e3"
    010: code
`;

  it('keeps ${NAME} when the choice is the value the variable gives', () => {
    const out = applyChoices(JOB, { mapping: { Contact: 'email', Plan: 'plan' } }, 'job.yaml', { EMAIL_FIELD: 'email' });
    expect(out).toBe(JOB);
  });

  it('replaces ${NAME} when the choice differs from the value the variable gives', () => {
    const out = applyChoices(JOB, { mapping: { Contact: 'phone' } }, 'job.yaml', { EMAIL_FIELD: 'email' });
    expect(out).toBe(edit(JOB, ['${EMAIL_FIELD}   #', 'phone   #']));
  });

  it('keeps an alias when the choice is the value it stands for', () => {
    const text = 'schema:\n  expectedFields: [customer_id, &em email]\nconfig:\n  mapping:\n    Contact: *em\n';
    expect(applyChoices(text, { mapping: { Contact: 'email' } })).toBe(text);
    expect(applyChoices(text, { mapping: { Contact: 'email', Plan: 'plan' } })).toBe(`${text}    Plan: plan\n`);
  });

  it('changes only the chosen member when its value is anchored and used elsewhere: the first alias takes the anchor and the old value', () => {
    const text = 'config:\n  mapping:\n    Email: &em email   # work address\n    Home: *em\nschema:\n  expectedFields: [id, *em]\n';
    const out = applyChoices(text, { mapping: { Email: 'contact' } });
    expect(out).toBe('config:\n  mapping:\n    Email: contact   # work address\n    Home: &em email\nschema:\n  expectedFields: [id, *em]\n');
    // The anchor's tag goes with it; a flow map moves the same way.
    expect(applyChoices('config:\n  dataTypes:\n    a: &t !!str number\n    b: {x: *t}\n', { dataTypes: { a: 'category' } }))
      .toBe('config:\n  dataTypes:\n    a: category\n    b: {x: &t !!str number}\n');
    expect(applyChoices('config:\n  impute:\n    a: &f {method: fill, value: US}\n    b: *f\n', { impute: { a: { method: 'dropMissing' } } }))
      .toBe('config:\n  impute:\n    a: {method: dropMissing}\n    b: &f {method: fill, value: US}\n');
  });

  it('refuses, in one sentence, to save into a section that is an alias or an anchor used elsewhere', () => {
    expect(() => applyChoices('config:\n  dataTypes: &dt\n    a: number\nschema:\n  fieldDataTypes: *dt\n', { dataTypes: { a: 'category' } }, 'job.yaml'))
      .toThrow(/^config\.dataTypes in job\.yaml is an anchor \(&dt\) used elsewhere, so saving config\.dataTypes\.a into it would change those places too; write them out in full and save again\.$/);
    expect(() => applyChoices('schema:\n  fieldDataTypes: &dt\n    a: number\nconfig:\n  dataTypes: *dt\n', { dataTypes: { a: 'category' } }, 'job.yaml'))
      .toThrow(/^config\.dataTypes in job\.yaml is an alias \(\*dt\), so config\.dataTypes\.a cannot be saved there/);
  });

  it('replaces a block scalar value (`|-` and its lines) with the choice on the key\'s line, keeping the line after it', () => {
    expect(applyChoices('config:\n  mapping:\n    A: |-\n      id\n    B: x\n', { mapping: { A: 'name' } })).toBe('config:\n  mapping:\n    A: name\n    B: x\n');
    expect(applyChoices('config:\r\n  mapping:\r\n    A: >-\r\n      id\r\n', { mapping: { A: 'name', B: 'x' } })).toBe('config:\r\n  mapping:\r\n    A: name\r\n    B: x\r\n');
  });

  it('finds a key YAML reads as a number by its text, as validate does, instead of adding a quoted twin', () => {
    const out = applyChoices(JOB, { mapping: { '1e3': 'total', '010': 'code', score: null } }, 'job.yaml', { EMAIL_FIELD: 'email' });
    expect(out).toBe(edit(JOB, ['1e3: amount ', '1e3: total '], ['    010: code\n', '    010: code\n    score: null\n']));
  });
});

describe('applyChoices removing settings', () => {
  it('removes members with their line comment, from block and flow maps, and writes {} for a block map left empty', () => {
    const text = `config:
  dataTypes:
    id: number # x
    notes: rich_text # inferred
  impute:
    notes:
      method: fill
      value: x
  units: {a: {from: null, to: null}, notes: {from: null, to: null}, b: {from: null, to: null}}
  text:
    casing: {notes: upper}
review: {}
`;
    const out = applyChoices(text, {}, 'job.yaml', {}, [
      ['config', 'dataTypes', 'notes'], ['config', 'impute', 'notes'], ['config', 'units', 'notes'], ['config', 'units', 'a'],
      ['config', 'text', 'casing', 'notes'], ['config', 'combining', 'notes'],
    ]);
    expect(out).toBe(`config:
  dataTypes:
    id: number # x
  impute: {}
  units: {b: {from: null, to: null}}
  text:
    casing: {}
review: {}
`);
  });
});

describe('applyChoices on what init wrote', () => {
  const INIT = `config:
  # sheet: Orders # suggested, confidence 0.67: under 0.8, review it; sheets: Notes, Orders
  mapping:
    # input column: output field (null leaves the column out)
    "Cust #": customer_id # suggested, confidence 0.92
    First: null # no field suggested
    # Joined: signed_up_at # suggested, confidence 0.64: under 0.8, review it
    Plan: plan # suggested, confidence 1.00
    # required field full_name has no column: map one to it here, e.g. "First: full_name"; until then \`import run\` stops (exit 5), as full_name would be empty in every row
  dataTypes:
    plan: category # from the schema, confidence 1.00 # and a note of mine
review:
  minConfidence: 0.8
`;

  it('writes a key init left for review on its commented line, and drops the notes the choices answered', () => {
    const out = applyChoices(INIT, { sheet: 'Orders', mapping: { First: 'full_name', Joined: 'signed_up_at', Plan: 'plan' }, dataTypes: { plan: 'rich_text' } });
    expect(out).toBe(`config:
  sheet: Orders
  mapping:
    # input column: output field (null leaves the column out)
    "Cust #": customer_id # suggested, confidence 0.92
    First: full_name
    Joined: signed_up_at
    Plan: plan # suggested, confidence 1.00
  dataTypes:
    plan: rich_text # from the schema, confidence 1.00 # and a note of mine
review:
  minConfidence: 0.8
`);
  });

  it('keeps the commented line of a key the choices do not set', () => {
    expect(applyChoices(INIT, { mapping: { Plan: 'plan' } })).toBe(INIT);
  });
});

describe('saveChoices', () => {
  it('writes the file atomically, keeping its mode, and leaves no temp file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-save-'));
    const path = join(dir, 'job.yaml');
    await writeFile(path, ODD);
    await chmod(path, 0o640);
    await saveChoices(path, { mapping: { Tel: 'phone' } });
    expect(await readFile(path, 'utf8')).toBe(edit(ODD, ['        Tel:\n', '        Tel: phone\n']));
    expect((await stat(path)).mode & 0o777).toBe(0o640);
    expect(await readdir(dir)).toEqual(['job.yaml']);
  });

  it('does not touch the file when nothing changes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-save-'));
    const path = join(dir, 'job.yaml');
    await writeFile(path, ODD);
    const before = await stat(path);
    await saveChoices(path, { mapping: { First: 'full_name' } });
    const after = await stat(path);
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });
});

describe('applyChoices removing an entry with its comments', () => {
  it('removes the comments directly above a removed entry and on its line, and keeps the others', () => {
    const text = `config:
  dataTypes:
    # types checked by hand
    id: number
    # free text
    # from the old export
    notes: rich_text # inferred

    # amounts in cents
    amount: number
      # deeper, not notes' own
    memo: rich_text
    # Joined: signed_up_at # suggested, confidence 0.64: under 0.8, review it
    extra: rich_text
    plan: category
`;
    const out = applyChoices(text, {}, 'job.yaml', {}, [
      ['config', 'dataTypes', 'notes'], ['config', 'dataTypes', 'memo'], ['config', 'dataTypes', 'extra'], ['config', 'dataTypes', 'id'],
    ]);
    expect(out).toBe(`config:
  dataTypes:
    # types checked by hand

    # amounts in cents
    amount: number
      # deeper, not notes' own
    # Joined: signed_up_at # suggested, confidence 0.64: under 0.8, review it
    plan: category
`);
  });

  it('removes list items of a block or flow list, last first, with their own comments, and writes [] for a block list left empty', () => {
    const text = `config:
  rowDropping:
    - {method: duplicateValues, fields: [id]} # one per id
    # rows without notes are noise
    - method: missingValues
      fields: [notes]
    - {method: missingValues, fields: [memo]}
  pivot: {pivotColumns: [a], valueColumns: [b], indexColumns: [c]}
schema:
  rowDropping: [{method: missingValues, fields: [id]}, {method: duplicateValues, fields: [notes]}]
`;
    expect(applyChoices(text, {}, 'job.yaml', {}, [['config', 'rowDropping', '1'], ['config', 'rowDropping', '2'], ['config', 'pivot']])).toBe(`config:
  rowDropping:
    - {method: duplicateValues, fields: [id]} # one per id
schema:
  rowDropping: [{method: missingValues, fields: [id]}, {method: duplicateValues, fields: [notes]}]
`);
    expect(applyChoices(text, {}, 'job.yaml', {}, [['config', 'rowDropping', '0'], ['config', 'rowDropping', '1'], ['config', 'rowDropping', '2']]))
      .toBe(text.replace(/  rowDropping:\n(    .*\n)+/, '  rowDropping: []\n'));
    expect(applyChoices(text, {}, 'job.yaml', {}, [['schema', 'rowDropping', '1']])).toBe(text.replace(', {method: duplicateValues, fields: [notes]}]', ']'));
  });
});

describe('applyChoices replacing a whole list', () => {
  it('replaces a block list with the new rules as block items, as it does a flow list in flow style', () => {
    const rules = [{ method: 'missingValues' as const, fields: ['id'] }, { method: 'duplicateValues' as const, fields: ['email', 'id'] }];
    const block = 'config:\n  rowDropping:\n    - method: duplicateValues\n      fields: [id]\n  text: {casing: {a: upper}}\n';
    expect(applyChoices(block, { rowDropping: rules })).toBe('config:\n  rowDropping:\n    - {method: missingValues, fields: [id]}\n    - {method: duplicateValues, fields: [email, id]}\n  text: {casing: {a: upper}}\n');
    expect(applyChoices(block, { rowDropping: [] })).toBe('config:\n  rowDropping:\n    []\n  text: {casing: {a: upper}}\n');
    const flow = 'config:\n  rowDropping: [{method: duplicateValues, fields: [id]}]\n';
    expect(applyChoices(flow, { rowDropping: rules })).toBe('config:\n  rowDropping: [{method: missingValues, fields: [id]}, {method: duplicateValues, fields: [email, id]}]\n');
  });
});

describe('checkSavable', () => {
  it('refuses, before any question, a config section a review may save into that is an alias or an anchor used elsewhere', () => {
    expect(() => checkSavable('schema:\n  fieldDataTypes: &dt {a: number}\nconfig:\n  dataTypes: *dt\n', 'job.yaml'))
      .toThrow(/^config\.dataTypes in job\.yaml is an alias \(\*dt\), so the review's choices cannot be saved there without changing what it points to; write config\.dataTypes out in full and save again\.$/);
    expect(() => checkSavable('config:\n  rowDropping: &r [{method: missingValues, fields: [id]}]\nschema:\n  rowDropping: *r\n', 'job.yaml'))
      .toThrow(/^config\.rowDropping in job\.yaml is an anchor \(&r\) used elsewhere/);
    expect(() => checkSavable('base: &c {mapping: {A: a}}\nconfig: *c\n', 'job.yaml')).toThrow(/^config in job\.yaml is an alias \(\*c\)/);
    expect(() => checkSavable('schema:\n  expectedFields: [&f a]\nconfig:\n  mapping: {A: *f}\n  units: {}\n', 'job.yaml')).not.toThrow();
  });
});
