/**
 * TypeSniffer's ids (lib/type-sniff.ts): one id per distinct type, however
 * alike two types are where the table hashes them (length, first and last
 * two bytes), whether found at the line's tail or by a validating scan.
 */
import t from 'tap';
import { NEW, TypeSniffer } from '../lib/type-sniff.js';

t.test('types alike at both ends get their own ids; the same type the same id', async (t) => {
  const sniffer = new TypeSniffer();
  const tail = (type: string) => {
    const line = Buffer.from(`{"a":1,"type":"${type}"}`);
    return sniffer.sniffId(line, 0, line.length);
  };
  const alike = ['ab_x_cd', 'ab_y_cd', 'ab_z_cd', 'ab__cd_', 'x', 'y', '', 'ab', 'ba'];
  const ids = alike.map(tail);
  t.equal(new Set(ids).size, alike.length, 'distinct ids');
  alike.forEach((type, k) => {
    t.equal(tail(type), ids[k], `${type}: the same id again`);
    t.equal(sniffer.typeOf(ids[k] ?? -1), type);
    // Found by a scan elsewhere in a line (here the type is not last): the same id.
    const line = Buffer.from(`{"type":"${type}","z":"q"}`);
    t.equal(sniffer.idAt(line, 8, 9 + Buffer.byteLength(type)), ids[k], `${type}: the same id by its quotes`);
  });
  t.equal(sniffer.typeOf(9999), '', 'an unknown id');
});

t.test('idAt refuses what no event type is', async (t) => {
  const sniffer = new TypeSniffer();
  const at = (value: string) => {
    const line = Buffer.from(`{"type":"${value}"}`);
    return sniffer.idAt(line, 8, line.length - 2);
  };
  t.equal(at('a\\"b'), -1, 'a backslash');
  t.equal(at('é'), -1, 'not ASCII');
  t.equal(at('a\u0001'), -1, 'a control byte');
  t.equal(at('x'.repeat(65)), -1, 'too long');
  t.ok(at('x'.repeat(64)) >= 0, '64 bytes is fine');
});

t.test('past the table: NEW, with the string in fresh', async (t) => {
  const sniffer = new TypeSniffer();
  for (let i = 0; i < 1024; i++) {
    const line = Buffer.from(`{"type":"t${i}"}`);
    t.equal(sniffer.sniffId(line, 0, line.length), i);
  }
  const line = Buffer.from('{"type":"one-more"}');
  t.equal(sniffer.sniffId(line, 0, line.length), NEW);
  t.equal(sniffer.fresh, 'one-more');
  t.equal(sniffer.sniff(line, 0, line.length), 'one-more');
  const known = Buffer.from('{"type":"t5"}');
  t.equal(sniffer.sniffId(known, 0, known.length), 5, 'known types keep their ids');
});
