import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { openInput } from '../../../src/engine/read/index.js';
import { HEADER_LINE_LIMIT, InputLimitError, ROW_LIMIT } from '../../../src/engine/read/limits.js';
import { BATCH_SIZE, emptyReport, type OpenOptions, type Row } from '../../../src/engine/types.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-read-csv-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let counter = 0;
/** Writes `content` to a new file in the temp dir and returns its path. */
async function file(content: string | Buffer, name = `data-${++counter}.csv`): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

/** Reads a whole file: its columns, rows and data-row numbers. */
async function readAll(path: string, opts: OpenOptions = {}): Promise<{ columns: string[]; rows: Row[]; rowNumbers: number[] }> {
  const source = await openInput({ file: path });
  const table = await source.open(opts);
  const rows: Row[] = [];
  const rowNumbers: number[] = [];
  for await (const batch of table.batches) {
    rows.push(...batch.rows);
    rowNumbers.push(...batch.rowNumbers);
  }
  return { columns: table.columns, rows, rowNumbers };
}

/** The UsageError a read throws. */
async function readError(path: string, opts: OpenOptions = {}): Promise<UsageError> {
  const error = await readAll(path, opts).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

describe('CSV reader', () => {
  it('describes the file: kind, base name, size and no sheets', async () => {
    const path = await file('a,b\n1,2\n', 'people.csv');
    const source = await openInput({ file: path });
    expect(source).toMatchObject({ kind: 'csv', name: 'people.csv', size: 8 });
    expect(await source.sheets()).toBeNull();
  });

  it('reads a small fixture file', async () => {
    const { columns, rows, rowNumbers } = await readAll(join('test', 'fixtures', 'read', 'customers.csv'));
    expect(columns).toEqual(['id', 'name', 'email']);
    expect(rows).toEqual([['1', 'Ada', 'ada@example.com'], ['2', 'Lovelace, Ada', null]]);
    expect(rowNumbers).toEqual([1, 2]);
  });

  it('detects a comma delimiter', async () => {
    const { columns, rows } = await readAll(await file('a,b;c,d\n1,2;3,4\n5,6,7\n'));
    expect(columns).toEqual(['a', 'b;c', 'd']);
    expect(rows).toEqual([['1', '2;3', '4'], ['5', '6', '7']]);
  });

  it('takes the delimiter that splits the header and every first row alike, as pandas writes a semicolon file', async () => {
    // to_csv(sep=';') quotes only fields holding ';': the header splits in three on ',' too.
    const text = 'Name, first;City, State;Amount\nSmith, John;Austin, TX;12\nMadonna;Lima;3\n"Doe; Jane";Boston, MA;7\n';
    const { columns, rows } = await readAll(await file(text));
    expect(columns).toEqual(['Name, first', 'City, State', 'Amount']);
    expect(rows).toEqual([['Smith, John', 'Austin, TX', '12'], ['Madonna', 'Lima', '3'], ['Doe; Jane', 'Boston, MA', '7']]);
    const tab = await readAll(await file('Name, first\tAge\nSmith, John\t42\nCher\t77\n'));
    expect(tab.rows).toEqual([['Smith, John', '42'], ['Cher', '77']]);
  });

  it('looks at the rows of the 64 KiB after the header line, past the first read, and not beyond', async () => {
    // Rows that split alike on ',' and ';' up to byte 65,537; the row telling them apart starts
    // in the second 64 KiB read and ends before the sample does (6 + 65,536 characters).
    const even = 'a,b;c\n' + 'x,y;z\n'.repeat(10_920) + 'xxxxxx,y;z\n';
    expect(even.length).toBe(65_537);
    expect((await readAll(await file(even + 'o;n\n'))).columns).toEqual(['a,b', 'c']);
    const far = even + 'x,y;z\n'.repeat(2) + 'o;n\n';
    expect((await readError(await file(far))).message).toContain('cannot tell the delimiter');
  });

  it('refuses, naming both and the way out, when two delimiters split the header and the first rows alike', async () => {
    const semi = await file('Name, first;Age\nSmith, John;42\n');
    expect((await readError(semi)).message).toBe(`${semi}:1: cannot tell the delimiter: the header and the first rows split evenly on "," (2 columns) and on ";" (2 columns); save the file comma-separated with quotes around the fields that hold a delimiter (as Excel's "CSV UTF-8" and pandas' default to_csv do) and retry (there is no setting for the delimiter).`);
    const tab = await file('\nName, first\tAge\nSmith, John\t42\n');
    expect((await readError(tab)).message).toBe(`${tab}:2: cannot tell the delimiter: the header and the first rows split evenly on "," (2 columns) and on tab (2 columns); save the file comma-separated with quotes around the fields that hold a delimiter (as Excel's "CSV UTF-8" and pandas' default to_csv do), or name a tab-separated file .tsv, and retry (there is no setting for the delimiter).`);
    // Different widths are no way out either; a header alone decides nothing.
    expect((await readError(await file('a;b,c;d\n1;2,3;4\n'))).message).toContain('split evenly on "," (2 columns) and on ";" (3 columns)');
    expect((await readError(await file('a;b,c;d\n'))).message).toContain('cannot tell the delimiter');
  });

  it('refuses when the header splits on several delimiters and none splits the first rows like it', async () => {
    const path = await file('id,a|b|c\n1,x\n2,y,z\n');
    expect((await readError(path)).message).toBe(`${path}:1: cannot tell the delimiter: the header splits on "," and "|", but none of them splits the first rows into as many cells as the header; fix those rows, or save the file comma-separated with quotes around the fields that hold a delimiter (as Excel's "CSV UTF-8" and pandas' default to_csv do) and retry (there is no setting for the delimiter).`);
  });

  it('takes the only delimiter of the header when a row differs, and names that row', async () => {
    const path = await file('id,name\n1,a\n2,b,c\n');
    expect((await readError(path)).message).toBe(`${path}:3: row has 3 cells but the header has 2; fix the row or pass --lenient to pad or cut such rows.`);
    expect((await readAll(await file('id,a|b|c\n1,x\n'))).columns).toEqual(['id', 'a|b|c']);
  });

  it('reads a header with no delimiter as one column whatever the rows hold', async () => {
    expect((await readAll(await file('total\n1;2\n3;4\n'))).rows).toEqual([['1;2'], ['3;4']]);
  });

  it('does not take a delimiter on which a quoted field has text after its closing quote', async () => {
    // On ";" the header's `"x;y",c` is a quoted field with text after it (the reader refuses that): only "," is left.
    const { columns, rows } = await readAll(await file('"x;y",c;d\n"1;2",3;4\n'));
    expect(columns).toEqual(['x;y', 'c;d']);
    expect(rows).toEqual([['1;2', '3;4']]);
  });

  it('detects a semicolon delimiter', async () => {
    const { columns, rows } = await readAll(await file('a;b;c\n1,5;2;3\n'));
    expect(columns).toEqual(['a', 'b', 'c']);
    expect(rows).toEqual([['1,5', '2', '3']]);
  });

  it('detects a tab delimiter in a .csv file', async () => {
    const { columns, rows } = await readAll(await file('a\tb\tc\n1\t2,5\t3\n'));
    expect(columns).toEqual(['a', 'b', 'c']);
    expect(rows).toEqual([['1', '2,5', '3']]);
  });

  it('detects a pipe delimiter', async () => {
    const { columns, rows } = await readAll(await file('a|b|c\n1|2|3\n'));
    expect(columns).toEqual(['a', 'b', 'c']);
    expect(rows).toEqual([['1', '2', '3']]);
  });

  it('ignores delimiters inside quoted header cells when detecting', async () => {
    const { columns } = await readAll(await file('"a,b,c";d;e\n1;2;3\n'));
    expect(columns).toEqual(['a,b,c', 'd', 'e']);
  });

  it('always uses tabs for a .tsv file', async () => {
    const { columns, rows } = await readAll(await file('a,b\tc\n1,2\t3\n', 'data.tsv'));
    expect(columns).toEqual(['a,b', 'c']);
    expect(rows).toEqual([['1,2', '3']]);
    const fixture = await readAll(join('test', 'fixtures', 'read', 'customers.tsv'));
    expect(fixture.rows).toEqual([['1', 'Ada', 'London'], ['2', 'Alan', null]]);
  });

  it('drops a UTF-8 byte-order mark', async () => {
    const { columns } = await readAll(await file(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('name,city\nZoë,Köln\n')])));
    expect(columns).toEqual(['name', 'city']);
  });

  it('drops a byte-order mark repeated at the start, and keeps a U+FEFF later as data', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const twice = await readAll(await file(Buffer.concat([bom, bom, Buffer.from('id,name\n1,\ufeffa\n')])));
    expect(twice.columns).toEqual(['id', 'name']);
    expect(twice.rows).toEqual([['1', '\ufeffa']]);
    const utf16 = await readAll(await file(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('\ufeff\ufeffid\n1\n', 'utf16le')])));
    expect(utf16.columns).toEqual(['id']);
    // Marks alone in the first read, the header in the next.
    const far = await readAll(await file(Buffer.concat([bom, Buffer.from('\ufeff'.repeat(30_000)), Buffer.from('id\n1\n')])));
    expect(far).toMatchObject({ columns: ['id'], rows: [['1']] });
  });

  it('decodes UTF-16 LE with a byte-order mark', async () => {
    const text = 'name,city\nZoë,Köln\n';
    const { columns, rows } = await readAll(await file(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])));
    expect(columns).toEqual(['name', 'city']);
    expect(rows).toEqual([['Zoë', 'Köln']]);
  });

  it('decodes UTF-16 BE with a byte-order mark', async () => {
    const text = 'name,city\nZoë,Köln\n';
    const le = Buffer.from(text, 'utf16le');
    const be = Buffer.from(le).swap16();
    const { columns, rows } = await readAll(await file(Buffer.concat([Buffer.from([0xfe, 0xff]), be])));
    expect(columns).toEqual(['name', 'city']);
    expect(rows).toEqual([['Zoë', 'Köln']]);
  });

  it('refuses UTF-16 without a byte-order mark at the first NUL byte, naming its line and column', async () => {
    const le = await file(Buffer.from('id,name\r\n1001,Ann\r\n', 'utf16le'));
    expect((await readError(le)).message).toBe(`${le}:1:2 holds a NUL byte: it looks like UTF-16/UTF-32 without a byte-order mark, or a binary file; save it as UTF-8 and retry.`);
    // A one-column file used to read as the header "i\0d\0" with garbage rows, exit 0.
    const ids = await file(Buffer.from('id\r\n1001\r\n', 'utf16le'));
    expect((await readError(ids)).message).toMatch(/:1:2 holds a NUL byte/);
    const be = await file(Buffer.from(Buffer.from('id\n1\n', 'utf16le')).swap16());
    expect((await readError(be)).message).toMatch(/:1:1 holds a NUL byte/);
  });

  it('refuses a NUL byte far into a UTF-8 file at its line and column, whatever the line ends', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `${i},Zoë ${i}`);
    const path = await file(`id,name\r\n${rows.join('\r\n')}\r\n1,ab\0c\r\n`);
    expect((await readError(path)).message).toBe(`${path}:20002:5 holds a NUL byte: it looks like UTF-16/UTF-32 without a byte-order mark, or a binary file; save it as UTF-8 and retry.`);
    const cr = await file('id,name\r1,a\r2,\0');
    expect((await readError(cr)).message).toMatch(/:3:3 holds a NUL byte/);
  });

  it('refuses UTF-32 with a byte-order mark, and a NUL in UTF-16 text with one', async () => {
    const le = Buffer.alloc(4 * 6);
    [...'\ufeffid\n1\n'].forEach((c, i) => le.writeUInt32LE(c.codePointAt(0)!, 4 * i));
    const path = await file(le);
    expect((await readError(path)).message).toBe(`${path} is UTF-32 text, which is not read; save it as UTF-8 and retry.`);
    const be = Buffer.alloc(4 * 6);
    [...'\ufeffid\n1\n'].forEach((c, i) => be.writeUInt32BE(c.codePointAt(0)!, 4 * i));
    expect((await readError(await file(be))).message).toContain('is UTF-32 text');
    const utf16 = await file(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('id\n1\0\n', 'utf16le')]));
    expect((await readError(utf16)).message).toBe(`${utf16}:2:2 holds a NUL character: it looks like a binary file rather than UTF-16LE text; save it as UTF-8 and retry.`);
  });

  it('reads quoted fields holding commas, line breaks and doubled quotes', async () => {
    const { rows, rowNumbers } = await readAll(await file('a,b,c\n"x, y","line 1\nline 2","say ""hi"""\n"",plain,"crlf\r\ninside"\n'));
    expect(rows).toEqual([['x, y', 'line 1\nline 2', 'say "hi"'], [null, 'plain', 'crlf\r\ninside']]);
    expect(rowNumbers).toEqual([1, 2]);
  });

  it('reads CRLF, LF and CR line endings', async () => {
    expect((await readAll(await file('a,b\r\n1,2\r\n3,\r\n'))).rows).toEqual([['1', '2'], ['3', null]]);
    expect((await readAll(await file('a,b\r1,2\r3,4'))).rows).toEqual([['1', '2'], ['3', '4']]);
    expect((await readAll(await file('a,"b"\r\n"1","2"\r\n'))).rows).toEqual([['1', '2']]);
  });

  it('keeps values unchanged and makes missing ones null', async () => {
    const { rows } = await readAll(await file('a,b,c\n  padded  ,   ,\t\n'));
    expect(rows).toEqual([['  padded  ', null, null]]);
  });

  it('names an empty header cell column_<n> by its 1-based position', async () => {
    const { columns } = await readAll(await file('id,,name,\n1,2,3,4\n'));
    expect(columns).toEqual(['id', 'column_2', 'name', 'column_4']);
  });

  it('suffixes repeated headers with _2, _3', async () => {
    const { columns } = await readAll(await file('name,name,id,name\n1,2,3,4\n'));
    expect(columns).toEqual(['name', 'name_2', 'id', 'name_3']);
  });

  it('says which headers it named or renamed, as one note for the report', async () => {
    const path = await file('id,,name,name\n1,2,3,4\n', 'notes.csv');
    const table = await (await openInput({ file: path })).open({});
    expect(table.columns).toEqual(['id', 'column_2', 'name', 'name_2']);
    expect(table.notes).toEqual([
      `The header of ${path} was completed: column 2 has no header and is read as "column_2"; column 4 repeats the header "name" and is read as "name_2".`,
    ]);
    expect((await (await openInput({ file: await file('a,b\n1,2\n') })).open({})).notes).toBeUndefined();
  });

  it('refuses Excel\'s sep= line and an HTML page instead of reading them as a header', async () => {
    const sep = await file('sep=;\na;b\n1;2\n');
    expect((await readError(sep)).message).toBe(`${sep}: the first line "sep=;" is Excel's delimiter hint, not a header; delete that line (the delimiter is detected) and run again.`);
    const html = await file('<!DOCTYPE html>\n<html><body>Sign in</body></html>\n');
    expect((await readError(html)).message).toBe(`${html} is an HTML page, not CSV (often a sign-in or error page saved in place of the data); download the data again, as CSV.`);
  });

  it('skips a suffix that is already a column name', async () => {
    const { columns } = await readAll(await file('a,a,a_2\n1,2,3\n'));
    expect(columns).toEqual(['a', 'a_3', 'a_2']);
  });

  it('fails on a row with the wrong number of cells, naming the file and line', async () => {
    const path = await file('a,b,c,d,e\n1,2,3,4,5\n1,2,3,4,5\n1,2,3,4,5\n1,2,3,4,5\n1,2,3,4,5\n1,2,3,4\n');
    const error = await readError(path);
    expect(error.message).toBe(`${path}:7: row has 4 cells but the header has 5; fix the row or pass --lenient to pad or cut such rows.`);
  });

  it('says the header is one column when a row of a file whose header holds no delimiter holds commas, without offering --lenient', async () => {
    const oneColumn = (path: string, line: number, commas: string) => `${path}:${line}: the header is one column (it holds no comma, semicolon, tab or | outside quotes) but this row holds ${commas} outside quotes; if the file is one column, quote the values that hold commas (as pandas' to_csv does with its default sep) or name the file .tsv, and if the rows hold more columns, add their names to the header.`;
    const path = await file('note\nplain\na, b\n');
    expect((await readError(path)).message).toBe(oneColumn(path, 3, '1 comma'));
    // A header whose only comma is quoted is one column too.
    const quoted = await file('"note, internal"\n"x, y"\na,b,c\n');
    expect((await readError(quoted)).message).toBe(oneColumn(quoted, 3, '2 commas'));
    // The way out the message names: the values quoted, or the file named .tsv.
    expect((await readAll(await file('note\n"a, b"\n'))).rows).toEqual([['a, b']]);
    expect((await readAll(await file('note\na, b\n', 'one-column.tsv'))).rows).toEqual([['a, b']]);
    // A .tsv file, whose delimiter is not guessed, and a wider header keep the usual message.
    const tsv = await file('note\na\tb\n', 'one-column-tab.tsv');
    expect((await readError(tsv)).message).toBe(`${tsv}:2: row has 2 cells but the header has 1; fix the row or pass --lenient to pad or cut such rows.`);
  });

  it('under lenient, cuts the rows of a one-column file at their first comma, warning with the first row numbers and what was kept', async () => {
    const warnings: string[] = [];
    const report = emptyReport();
    const path = await file('note\nplain\na, b\n"x, y"\nc,d,e\n1,2\n3,4\n5,6\n7,8\n');
    const { rows } = await readAll(path, { lenient: true, report, warn: (m) => warnings.push(m) });
    expect(rows).toEqual([['plain'], ['a'], ['x, y'], ['c'], ['1'], ['3'], ['5'], ['7']]);
    expect(report.rowsRepaired).toBe(6);
    expect(warnings).toEqual([`${path}:3: the header is one column (it holds no comma, semicolon, tab or | outside quotes), so --lenient cut 6 rows (2, 4, 5, 6, 7, ...) at the first comma outside quotes, keeping "a" of "a, b" and the like; to keep such values whole, quote them (as pandas' to_csv does with its default sep) or name the file .tsv, and if the rows hold more columns, add their names to the header.`]);
    warnings.length = 0;
    const one = await file('note\n"a\nb"\nlong value, ' + 'x'.repeat(50) + '\n');
    await readAll(one, { lenient: true, warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([`${one}:4: the header is one column (it holds no comma, semicolon, tab or | outside quotes), so --lenient cut row 2 at the first comma outside quotes, keeping "long value" of "long value, ${'x'.repeat(28)}..."; to keep such values whole, quote them (as pandas' to_csv does with its default sep) or name the file .tsv, and if the rows hold more columns, add their names to the header.`]);
  });

  it('says the line ends are mixed when a lone CR (or, in a CR file, an LF) runs two lines into one row', async () => {
    const crlf = await file('id,name\r\n1,a\n2,b\r3,c\n');
    expect((await readError(crlf)).message).toBe(`${crlf}:3:4: the line ends are mixed: this line holds a lone CR, which does not end a row in a file whose lines end in LF or CRLF, so the row has 3 cells but the header has 2; save the file with one kind of line end (an editor's line-ending setting does it) and retry.`);
    const cr = await file('id,name\r1,a\n2,b\r3,c\r');
    expect((await readError(cr)).message).toBe(`${cr}:2:4: the line ends are mixed: this line holds an LF, which does not end a row in a file whose lines end in a lone CR, so the row has 3 cells but the header has 2; save the file with one kind of line end (an editor's line-ending setting does it) and retry.`);
    // A CR inside quotes is data: a row too wide for another reason keeps the usual message.
    const quoted = await file('id,name\n1,"a\rb",c\n');
    expect((await readError(quoted)).message).toBe(`${quoted}:2: row has 3 cells but the header has 2; fix the row or pass --lenient to pad or cut such rows.`);
  });

  it('says the line ends are mixed when a lone CR (or, in a CR file, an LF) follows a closing quote, at its line and column', async () => {
    const mixed = "save the file with one kind of line end (an editor's line-ending setting does it) and retry.";
    const lf = await file('a,b\n"a"\rb,c\n1,2\n');
    expect((await readError(lf)).message).toBe(`${lf}:2:4: the line ends are mixed: a closing quote is followed by a lone CR, which does not end a row in a file whose lines end in LF or CRLF; ${mixed}`);
    // Spaces may come between the quote and the CR; a CRLF line end converted once more is a lone CR too.
    const spaced = await file('a,b\r\n1,"x" \ry\r\n');
    expect((await readError(spaced)).message).toBe(`${spaced}:2:7: the line ends are mixed: a closing quote is followed by a lone CR, which does not end a row in a file whose lines end in LF or CRLF; ${mixed}`);
    // There Papa Parse drops the CR: refused under lenient too, which could not keep it in the value.
    const twice = await file('a,b\r\n1,"x"\r\r\n2,3\r\n');
    expect((await readError(twice)).message).toMatch(/:2:6: the line ends are mixed: a closing quote is followed by a lone CR/);
    expect((await readError(twice, { lenient: true })).message).toMatch(/:2:6: the line ends are mixed: a closing quote is followed by a lone CR/);
    const cr = await file('a,b\r1,"x"\ny\r2,3\r');
    expect((await readError(cr)).message).toBe(`${cr}:2:6: the line ends are mixed: a closing quote is followed by an LF, which does not end a row in a file whose lines end in a lone CR; ${mixed}`);
    // Other text after a closing quote keeps its own message, and a CR that ends the file is its last line end.
    expect((await readError(await file('a,b\n1,"x"y\n'))).message).toMatch(/:2:5: a quoted field has text after its closing quote;/);
    expect((await readAll(await file('a,b\n1,"x"\r'))).rows).toEqual([['1', 'x']]);
    expect((await readAll(await file('a,b\n1,"x\r"\r'))).rows).toEqual([['1', 'x\r']]);
  });

  it('refuses a lone CR in an unquoted field of an LF or CRLF file at its line and column, though the row is as wide as the header', async () => {
    const fix = "which readers disagree on (some end the row there, some refuse the file); quote the field if the CR is part of the value, or save the file with one kind of line end (an editor's line-ending setting does it) if it ends a line.";
    const lf = await file('a,b\n1,x\ry\n2,z\n');
    expect((await readError(lf)).message).toBe(`${lf}:2:4: an unquoted field holds a lone CR (carriage return), ${fix}`);
    const crlf = await file('a,b\r\n1,x\r\n"2\r\n3",y\rz\r\n');
    expect((await readError(crlf)).message).toBe(`${crlf}:4:5: an unquoted field holds a lone CR (carriage return), ${fix}`);
    // A CRLF line end converted once more (CR CR LF): the first CR is a lone one.
    const twice = await file('a,b\r\n1,x\r\r\n');
    expect((await readError(twice)).message).toMatch(new RegExp(`:2:4: an unquoted field holds a lone CR`));
    // In a file whose lines end in a lone CR, an LF is the stray line break.
    const cr = await file('a,b\r1,x\ny\r');
    expect((await readError(cr)).message).toBe(`${cr}:2:4: an unquoted field holds an LF (line feed), which readers disagree on (some end the row there, some refuse the file); quote the field if the LF is part of the value, or save the file with one kind of line end (an editor's line-ending setting does it) if it ends a line.`);
  });

  it('keeps a CR inside a quoted field, and reads a CR that ends the file as its last line end', async () => {
    expect((await readAll(await file('a,b\n1,"x\ry"\n'))).rows).toEqual([['1', 'x\ry']]);
    expect((await readAll(await file('a,b\r1,"x\ny"\r'))).rows).toEqual([['1', 'x\ny']]);
    expect((await readAll(await file('a,b\n1,x\n2,y\r'))).rows).toEqual([['1', 'x'], ['2', 'y']]);
  });

  it('keeps a lone CR in an unquoted field under lenient, warning once with the first place and the count', async () => {
    const warnings: string[] = [];
    const path = await file('a,b\n1,x\ry\n2,z\n3,p\rq\n');
    const { rows } = await readAll(path, { lenient: true, warn: (m) => warnings.push(m) });
    expect(rows).toEqual([['1', 'x\ry'], ['2', 'z'], ['3', 'p\rq']]);
    expect(warnings).toEqual([`${path}:2:4: an unquoted field holds a lone CR (carriage return), kept in the value under --lenient (2 rows hold one); quote such fields if the CR is part of the value, or save the file with one kind of line end if it ends a line.`]);
  });

  it('says the line ends are mixed when it pads or cuts such a row under lenient, apart from CRs kept in rows of the right width', async () => {
    const warnings: string[] = [];
    const report = emptyReport();
    const crlf = await file('id,name\r\n1,a\n2,b\r3,c\r\n4,d\re\r\n5\r6,f\r\n');
    const { rows } = await readAll(crlf, { lenient: true, report, warn: (m) => warnings.push(m) });
    expect(rows).toEqual([['1', 'a'], ['2', 'b\r3'], ['4', 'd\re'], ['5\r6', 'f']]);
    expect(report.rowsRepaired).toBe(1);
    expect(warnings).toEqual([
      `${crlf}:3:4: the line ends are mixed: this line holds a lone CR, which does not end a row in a file whose lines end in LF or CRLF, so its row had the wrong number of cells and was padded or cut under --lenient; save the file with one kind of line end (an editor's line-ending setting does it) to read the rows as written.`,
      `${crlf}:4:4: an unquoted field holds a lone CR (carriage return), kept in the value under --lenient (2 rows hold one); quote such fields if the CR is part of the value, or save the file with one kind of line end if it ends a line.`,
    ]);
    warnings.length = 0;
    const cr = await file('id,name\r1,a\n2,b\r3\n4\r');
    expect((await readAll(cr, { lenient: true, warn: (m) => warnings.push(m) })).rows).toEqual([['1', 'a\n2'], ['3\n4', null]]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].startsWith(`${cr}:2:4: the line ends are mixed: this line holds an LF, `)).toBe(true);
    expect(warnings[0]).toContain('(2 such rows in all); save the file');
  });

  it('keeps MySQL\'s \\N as text, as pandas does, warning once with each column\'s count and first row and the ways to make it missing', async () => {
    const warnings: string[] = [];
    // As mysqldump --tab writes a table: tab-separated, NULL as \N (quoted too); \N among other text, or \\N (an escaped backslash), is not counted.
    const path = await file('id\tnote\tamount\n1\t\\N\t\\N\n2\tx \\N\t3\n3\t\\N\t"\\N"\n4\t\\\\N\t5\n', 'dump.tsv');
    const { rows } = await readAll(path, { warn: (m) => warnings.push(m) });
    expect(rows).toEqual([['1', '\\N', '\\N'], ['2', 'x \\N', '3'], ['3', '\\N', '\\N'], ['4', '\\\\N', '5']]);
    expect(warnings).toEqual([`${path}: \\N, MySQL's NULL as SELECT ... INTO OUTFILE and mysqldump --tab write it, is kept as the text \\N (as pandas reads it; a number or date_time field counts it as a coercion failure), in columns "note" in 2 rows (first row 1), "amount" in 2 rows (first row 1); to read it as missing, export NULL as an empty field, or give the field the text rule '^\\\\N$': '' under config.text.regexReplacement (text rules run after impute).`]);
    warnings.length = 0;
    const one = await file('a,b\n1,2\n3,\\N\n');
    await readAll(one, { warn: (m) => warnings.push(m) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('in column "b" in row 2;');
    warnings.length = 0;
    await readAll(await file('a,b\n1,\\n\n2,N\\\n'), { warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([]);
  });

  it('counts physical lines after a quoted multi-line field and blank lines', async () => {
    const path = await file('a,b\n"one\ntwo\nthree",x\n\n1,2\n1,2,3\n');
    const error = await readError(path);
    expect(error.message).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:7: row has 3 cells but the header has 2;`));
  });

  it('names the right line far into a large file', async () => {
    const lines = ['a,b'];
    for (let i = 0; i < 50_000; i++) lines.push(i % 1000 === 0 ? `"multi\nline ${i}",${i}` : `${i},"x, ${i}"`);
    lines.push('1,2,3');
    const path = await file(lines.join('\n') + '\n');
    const error = await readError(path);
    // 1 header line + 50,000 records, 50 of which span two lines.
    expect(error.message).toContain(`:${1 + 50_000 + 50 + 1}: row has 3 cells`);
  });

  it('pads short rows and cuts long ones under lenient, counting them', async () => {
    const report = emptyReport();
    const { rows } = await readAll(await file('a,b,c\n1\n1,2,3\n1,2,3,4,5\n'), { lenient: true, report });
    expect(rows).toEqual([['1', null, null], ['1', '2', '3'], ['1', '2', '3']]);
    expect(report.rowsRepaired).toBe(2);
  });

  it('fails on an empty file', async () => {
    const path = await file('');
    expect((await readError(path)).message).toBe(`${path} is empty; give a file whose first line is a header row.`);
    expect((await readError(await file('\n\r\n\n'))).message).toContain('is empty');
  });

  it('reads a header-only file as zero rows', async () => {
    expect(await readAll(await file('a,b,c\n'))).toEqual({ columns: ['a', 'b', 'c'], rows: [], rowNumbers: [] });
    expect(await readAll(await file('a,b,c'))).toEqual({ columns: ['a', 'b', 'c'], rows: [], rowNumbers: [] });
  });

  it('skips completely blank lines, including the trailing newline', async () => {
    const { rows, rowNumbers } = await readAll(await file('\na,b\n1,2\n\n\r\n3,4\n\n'));
    expect(rows).toEqual([['1', '2'], ['3', '4']]);
    expect(rowNumbers).toEqual([1, 2]);
  });

  it('reads text that turns non-ASCII past the first MiB, a character split across reads, then names a bad line', async () => {
    // ASCII rows of 16 bytes, then a row whose 'é' (2 bytes) starts on the last byte of the first 1 MiB read.
    const rows = Math.floor((1 << 20) / 16) - 1;
    const ascii = 'id,name\n' + Array.from({ length: rows }, (_, i) => `${String(i).padStart(6, '0')},abcdefgh\n`).join('');
    const padded = `x,${'a'.repeat((1 << 20) - 1 - ascii.length - 2)}é`;
    const good = Buffer.from(`${ascii}${padded}\nz,ü\n`);
    expect(good.indexOf(Buffer.from('é'))).toBe((1 << 20) - 1);
    const read = await readAll(await file(good));
    expect(read.rows.length).toBe(rows + 2);
    expect(read.rows.at(-2)).toEqual(['x', padded.slice(2)]);
    expect(read.rows.at(-1)).toEqual(['z', 'ü']);
    const path = await file(Buffer.concat([good, Buffer.from('y,'), Buffer.from([0xff]), Buffer.from('\n')]));
    expect((await readError(path)).message).toMatch(`${path}:${rows + 4}:3 holds the byte 0xFF ("ÿ" in Windows-1252), which is not UTF-8`);
  });

  it('fails on bytes that are not UTF-8, naming the line and column, whatever the line ends', async () => {
    for (const end of ['\n', '\r\n', '\r']) {
      const path = await file(Buffer.concat([Buffer.from(`a,b${end}1,2${end}3,é`), Buffer.from([0x81, 0xfe, 0x41]), Buffer.from(end)]));
      const error = await readError(path);
      expect(error.message).toBe(`${path}:3:4 holds the byte 0x81${end === '\r' ? ' ("Å" in Mac Roman)' : ''}, which is not UTF-8: the file was saved in another encoding; save it as UTF-8 (Excel: "CSV UTF-8"; LibreOffice: character set "Unicode (UTF-8)") or convert it (iconv -f ${end === '\r' ? 'MACINTOSH' : 'WINDOWS-1252'} -t UTF-8 FILE > utf8.csv) and retry.`);
    }
  });

  it('fails on a missing file with the path and the OS reason', async () => {
    const path = join(dir, 'nope.csv');
    const error = await openInput({ file: path }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`Cannot read ${path}: no such file or directory; check the path and its permissions, then retry.`);
  });

  it('fails on a quoted field that is never closed, naming the line it starts on', async () => {
    const path = await file('a,b\n1,2\n3,"open\n4,5\n');
    expect((await readError(path)).message).toMatch(/:3: a quoted field is never closed;/);
  });

  it('fails on text after a closing quote, naming the quote\'s line and column', async () => {
    const path = await file('a,b\n1,2\n"Smith" Jr,5\n6,7\n');
    expect((await readError(path)).message).toMatch(/:3:7: a quoted field has text after its closing quote; quote the whole field/);
  });

  it('refuses whitespace between a closing quote and the delimiter or line end, which Python\'s csv module keeps and Papa Parse dropped, at its line and column', async () => {
    // Found by the differential probe (csv-differential.test.ts): `"x" ,y` was read as `x`, where
    // Python's csv module and pandas read `x ` and a tab or NBSP there too.
    const why = "a quoted field has whitespace after its closing quote, which readers disagree on (some drop it, Python's csv module and pandas keep it in the value); delete it, or move it inside the quotes if it is part of the value.";
    const cases: [string, string][] = [
      ['a,b\n1,2\n"x" ,y\n', '3:4'],
      ['a,b\r\n1,"y"  \r\n', '2:6'],
      ['a;b\n"x"\t;y\n', '2:4'],
      ['a,b\n"x"\u00a0,y\n', '2:4'],
      ['"a" ,b\nx,y\n', '1:4'],
      ['a,b\nx,"y"  ', '2:6'],
      [`a,b\n${'p,q\n'.repeat(6000)}"x" ,y\n`, '6002:4'],
    ];
    for (const [content, at] of cases) {
      const path = await file(content);
      expect((await readError(path)).message).toBe(`${path}:${at}: ${why}`);
    }
    // Spaces inside the quotes, before an opening quote (no quoting then) or around unquoted values are values.
    expect((await readAll(await file('a,b\n"x ",y\n "z", w \n'))).rows).toEqual([['x ', 'y'], [' "z"', ' w ']]);
  });

  it('hands rows out in batches with 1-based data-row numbers', async () => {
    const lines = ['n,sq'];
    for (let i = 1; i <= BATCH_SIZE + 10; i++) lines.push(`${i},${i * i}`);
    const table = await (await openInput({ file: await file(lines.join('\n')) })).open();
    const sizes: number[] = [];
    let last: number[] = [];
    for await (const batch of table.batches) {
      sizes.push(batch.rows.length);
      last = batch.rowNumbers;
    }
    expect(sizes).toEqual([BATCH_SIZE, 10]);
    expect(last[9]).toBe(BATCH_SIZE + 10);
  });

  it('reads fields that span the parser\'s internal slices', async () => {
    const long = 'x'.repeat(100_000);
    const quoted = `"${'y,"" '.repeat(20_000)}\n"`;
    const { rows } = await readAll(await file(`a,b\n${long},${quoted}\n1,2\n`));
    expect(rows[0][0]).toBe(long);
    expect(rows[0][1]).toBe(`${'y," '.repeat(20_000)}\n`);
    expect(rows[1]).toEqual(['1', '2']);
  });

  it('reads a multi-megabyte file whose records, characters and CRLFs cross read boundaries', async () => {
    const expected: Row[] = [];
    const lines = ['id,text,note'];
    for (let i = 0; i < 60_000; i++) {
      const text = `Zoë ${'é'.repeat(i % 7)} 😀 ${i}`;
      const note = i % 3 === 0 ? `line\r\nbreak, "${i}"` : `n${i}`;
      expected.push([String(i), text, note]);
      lines.push(`${i},${text},"${note.replace(/"/g, '""')}"`);
    }
    const content = lines.join('\r\n') + '\r\n';
    expect(Buffer.byteLength(content)).toBeGreaterThan(2 * 1024 * 1024);
    expect((await readAll(await file(content))).rows).toEqual(expected);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(content, 'utf16le')]);
    expect((await readAll(await file(utf16))).rows).toEqual(expected);
  });

  it('reports progress in bytes as the file streams', async () => {
    const path = await file('a,b\n1,2\n3,4\n');
    const seen: number[] = [];
    await readAll(path, { onProgress: (n) => seen.push(n) });
    expect(seen.at(-1)).toBe(12);
  });
});

describe('CSV reader keeps every value', () => {
  it('keeps a carriage return inside a quoted last cell, in LF and CRLF files', async () => {
    expect((await readAll(await file('a,b\n1,"x\r"\n2,y\n'))).rows).toEqual([['1', 'x\r'], ['2', 'y']]);
    expect((await readAll(await file('a,b\r\n1,"x\r"\r\n2,y\r\n3,"z"\r\n'))).rows).toEqual([['1', 'x\r'], ['2', 'y'], ['3', 'z']]);
    // Unquoted, the CR before LF is the line end.
    expect((await readAll(await file('a,b\r\n1,x\r\n'))).rows).toEqual([['1', 'x']]);
  });

  it('keeps a carriage return at the end of a quoted cell in a CR-only file', async () => {
    expect((await readAll(await file('a,b\r1,"x\r"\r2,y\r'))).rows).toEqual([['1', 'x\r'], ['2', 'y']]);
  });

  it('reads a one-column line holding "" as a row with a missing value, and skips blank lines', async () => {
    const { columns, rows, rowNumbers } = await readAll(await file('name\nAda\n""\n\nBob\n""\n'));
    expect(columns).toEqual(['name']);
    expect(rows).toEqual([['Ada'], [null], ['Bob'], [null]]);
    expect(rowNumbers).toEqual([1, 2, 3, 4]);
    expect((await readAll(await file('name\r\nAda\r\n""\r\n\r\n'))).rows).toEqual([['Ada'], [null]]);
  });

  it('counts a "" line in a wider file as a row with one cell', async () => {
    const error = await readError(await file('a,b\n1,2\n""\n'));
    expect(error.message).toBe(`${join(dir, `data-${counter}.csv`)}:3: row has 1 cell but the header has 2; fix the row or pass --lenient to pad or cut such rows.`);
  });

  it('keeps a column named __proto__ and integer-like names in order', async () => {
    const { columns, rows } = await readAll(await file('__proto__,1962,constructor\nx,y,z\n'));
    expect(columns).toEqual(['__proto__', '1962', 'constructor']);
    expect(rows).toEqual([['x', 'y', 'z']]);
  });
});

describe('CSV reader limits', () => {
  it('refuses a header line longer than the limit, naming the line, with a UsageError', async () => {
    const path = await file(`\n${'column,'.repeat(Math.ceil(HEADER_LINE_LIMIT / 7) + 10)}`);
    const error = await readError(path);
    expect(error).toBeInstanceOf(InputLimitError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(`${path}:2: the header line is longer than 4 MiB with no line break; check that this is a CSV file, or fix the quote.`);
  });

  it('refuses a row longer than the limit, naming its line', async () => {
    const path = await file(`a,b\n1,2\n3,"${'x'.repeat(ROW_LIMIT + 10)}\n`);
    const error = await readError(path);
    expect(error).toBeInstanceOf(InputLimitError);
    expect(error.message).toBe(`${path}:3: a row is longer than 32 MiB (a quoted field may never be closed); fix the quote or split the field.`);
  });

  it('reads long lines in time linear in their length', async () => {
    // 4x the input costs about 4x: a rescan per chunk (as once for the header line) would make it ~16x.
    const time = async (columns: number, cell: number) => {
      const header = Array.from({ length: columns }, (_, i) => `col${i}`).join(',');
      const path = await file(`${header}\n"${'x'.repeat(cell)}"${',y'.repeat(columns - 1)}`);
      const started = performance.now();
      const { columns: read, rows } = await readAll(path);
      expect(read.length).toBe(columns);
      expect((rows[0][0] as string).length).toBe(cell);
      return performance.now() - started;
    };
    await time(20_000, 1 << 20); // warm-up
    const small = await time(100_000, 4 << 20);
    const large = await time(400_000, 16 << 20);
    expect(large).toBeLessThan(small * 4 * 3 + 1000);
  });
});

