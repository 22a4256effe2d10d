import { parseOrderList } from './parse-order-list';

describe('pasted order lists (issue 27 §2)', () => {
  it('when lines are tab, comma, semicolon or space separated, then each gives code and quantity', () => {
    expect(parseOrderList('35918\t12\n34422, 6\n43337 24\n"11788";3').map((l) => [l.itemCode, l.quantity, l.problem])).toEqual([
      ['35918', 12, null],
      ['34422', 6, null],
      ['43337', 24, null],
      ['11788', 3, null],
    ]);
  });
  it('when a CSV has the Item Number, Quantity header and CRLF endings, then the header and blank lines are skipped and line numbers kept', () => {
    const parsed = parseOrderList('Item Number,Quantity\r\n35918,12\r\n\r\n34422,6\r\n');
    expect(parsed).toEqual([
      { line: 2, itemCode: '35918', quantity: 12, problem: null },
      { line: 4, itemCode: '34422', quantity: 6, problem: null },
    ]);
  });
  it('when a quantity is missing, not a number or over 999, then the line stays with its problem (never dropped)', () => {
    const parsed = parseOrderList('35918\n34422, six\n43337, 1200\n11788, 0');
    expect(parsed.map((l) => [l.itemCode, l.quantity, l.problem])).toEqual([
      ['35918', null, 'Enter a quantity'],
      ['34422', null, '"six" is not a quantity'],
      ['43337', 999, 'At most 999 bottles per line'],
      ['11788', null, '"0" is not a quantity'],
    ]);
  });
  it('when 200 lines are pasted, then 200 lines come back in order', () => {
    const text = Array.from({ length: 200 }, (_, i) => `${10000 + i}\t${(i % 5) + 1}`).join('\n');
    const parsed = parseOrderList(text);
    expect(parsed).toHaveLength(200);
    expect(parsed[199]).toMatchObject({ line: 200, itemCode: '10199', quantity: 5 });
  });
});
