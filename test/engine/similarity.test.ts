import { describe, expect, it } from 'vitest';
import { canonicalTokens, nameSimilarity, normaliseName } from '../../src/engine/similarity.js';

describe('normaliseName', () => {
  it('lower-cases and splits on spaces, underscores, hyphens and camelCase', () => {
    expect(normaliseName('E-mail Address')).toBe('e_mail_address');
    expect(normaliseName('firstName')).toBe('first_name');
    expect(normaliseName('FIRST_NAME')).toBe('first_name');
    expect(normaliseName('HTTPStatusCode')).toBe('http_status_code');
    expect(normaliseName('  Order--Date  ')).toBe('order_date');
  });

  it('splits letters from digits and drops accents', () => {
    expect(normaliseName('address2')).toBe('address_2');
    expect(normaliseName('Teléfono')).toBe('telefono');
  });
});

describe('canonicalTokens', () => {
  it('rewrites abbreviations and synonyms to one spelling', () => {
    expect(canonicalTokens('E-mail Address')).toEqual(['email']);
    expect(canonicalTokens('Qty')).toEqual(['quantity']);
    expect(canonicalTokens('Mobile No.')).toEqual(['phone']);
    expect(canonicalTokens('DOB')).toEqual(['birth', 'date']);
    expect(canonicalTokens('Date of Birth')).toEqual(['birth', 'date']);
    expect(canonicalTokens('zipcode')).toEqual(['postal', 'code']);
    expect(canonicalTokens('created_at')).toEqual(['created']);
  });

  it('strips English plurals', () => {
    expect(canonicalTokens('Emails')).toEqual(['email']);
    expect(canonicalTokens('Categories')).toEqual(['category']);
    expect(canonicalTokens('Addresses')).toEqual(['address']);
    expect(canonicalTokens('Status')).toEqual(['status']);
  });
});

describe('nameSimilarity', () => {
  it('scores names equal once normalised 1.0', () => {
    expect(nameSimilarity('firstName', 'first_name')).toBe(1);
    expect(nameSimilarity('FIRST NAME', 'first_name')).toBe(1);
    expect(nameSimilarity('E-mail', 'email')).toBe(1);
    expect(nameSimilarity('Country', 'country')).toBe(1);
  });

  it('scores names equal once synonyms are applied 0.95', () => {
    const pairs: [string, string][] = [
      ['E-mail Address', 'email'], ['Mail', 'email'], ['Qty', 'quantity'], ['Tel', 'phone'], ['Telephone', 'phone'],
      ['Mobile Number', 'phone'], ['Amt', 'amount'], ['DOB', 'birth_date'], ['Zip', 'postal_code'],
      ['fname', 'first_name'], ['lname', 'last_name'], ['Addr', 'address'], ['Desc', 'description'],
      ['Identifier', 'id'], ['Num', 'number'], ['Nation', 'country'], ['Created', 'created_at'],
      ['Phone No.', 'phone'], ['Surname', 'last_name'],
    ];
    for (const [column, field] of pairs) expect([column, field, nameSimilarity(column, field)]).toEqual([column, field, 0.95]);
  });

  it('ignores token order', () => {
    expect(nameSimilarity('Name First', 'first_name')).toBe(0.95);
  });

  it('scores partial token overlap 0.9 times the soft Dice coefficient', () => {
    expect(nameSimilarity('Customer ID', 'id')).toBeCloseTo(0.6, 10);
    expect(nameSimilarity('Name', 'full_name')).toBeCloseTo(0.6, 10);
    expect(nameSimilarity('last_name', 'first_name')).toBeCloseTo(0.45, 10);
  });

  it('gives related words partial credit', () => {
    expect(nameSimilarity('Date', 'created_at')).toBeCloseTo(0.72, 10);
    expect(nameSimilarity('Total', 'amount')).toBeCloseTo(0.72, 10);
  });

  it('tolerates typos and prefix abbreviations below synonym matches', () => {
    const typo = nameSimilarity('adress', 'address');
    expect(typo).toBeGreaterThan(0.5);
    expect(typo).toBeLessThan(0.95);
    expect(nameSimilarity('cat', 'category')).toBeCloseTo(0.63, 10);
  });

  it('matches numbered names only on the same number', () => {
    expect(nameSimilarity('address 1', 'address_2')).toBeLessThan(0.5);
    expect(nameSimilarity('address1', 'address_1')).toBe(1);
  });

  it('scores unrelated names 0', () => {
    expect(nameSimilarity('Internal Notes', 'email')).toBe(0);
    expect(nameSimilarity('First', 'full_name')).toBe(0);
    expect(nameSimilarity('', 'email')).toBe(0);
  });
});
