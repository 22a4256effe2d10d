// Cuts the small test fixtures from the real files in ../shared/data (deterministic):
// 5 stores (3 large active, 1 small, 1 inactive), ~70 items they carry (vodkas, other spirits, odd sizes),
// and the store_items rows linking them. Output: apps/api/src/test/fixtures/*.csv (same shapes as the real files).
import { readFileSync, writeFileSync } from 'node:fs';
const src = '../shared/data',
  out = 'apps/api/src/test/fixtures';
const STORES = ['2190', '4129', '2614', '2106', '2113'];
const lines = (f) => readFileSync(`${src}/${f}`, 'utf8').trimEnd().split('\n');
const stores = lines('stores.csv');
writeFileSync(`${out}/stores.csv`, [stores[0], ...stores.slice(1).filter((l) => STORES.includes(l.split(',')[0]))].join('\n') + '\n');
const si = lines('store_items_2022.csv');
const carried = new Map(); // item -> set of stores
for (const l of si.slice(1)) {
  const [s, i] = l.split(',');
  if (STORES.includes(s)) {
    if (!carried.has(i)) carried.set(i, new Set());
    carried.get(i).add(s);
  }
}
const products = lines('products.csv');
const pick = new Set();
const vodkas = [],
  others = [],
  sizes = new Map();
for (const l of products.slice(1)) {
  const code = l.split(',')[0];
  const c = carried.get(code);
  if (!c || !c.has('2190')) continue;
  if (/VODKA/.test(l) && vodkas.length < 25) vodkas.push(code);
  else if (others.length < 35) others.push(code);
  const vol = l.match(/,(\d+),(\d+),(\d+),(\d+),(\d+),\d{4}-/)?.[1];
  if (vol && !sizes.has(vol)) sizes.set(vol, code);
}
for (const c of [...vodkas, ...others, ...sizes.values()]) pick.add(c);
for (const [code, s] of carried) if (s.has('2614') && !s.has('2190') && pick.size < 90) pick.add(code);
writeFileSync(`${out}/products.csv`, [products[0], ...products.slice(1).filter((l) => pick.has(l.split(',')[0]))].join('\n') + '\n');
writeFileSync(
  `${out}/store_items.csv`,
  [
    si[0],
    ...si.slice(1).filter((l) => {
      const [s, i] = l.split(',');
      return STORES.includes(s) && pick.has(i);
    }),
  ].join('\n') + '\n',
);
console.log(`fixtures: ${pick.size} items`);
