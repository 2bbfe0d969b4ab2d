/**
 * regexEnds (lib/redact/regex-ends.ts): the ASCII characters that can end a
 * match of a regex, read from its source. The hold-back skips a free
 * partial when a piece's last character is none of them, so the set may be
 * too large but never too small: checked against the regex itself.
 */
import t from 'tap';
import fc from 'fast-check';
import { cannotEnd, regexEnds, unionEnds } from '../lib/redact/regex-ends.js';
import { DEFAULT_RULES, EMAIL_RULE, HOME_RULES, PATH_RULES } from '../lib/redact/rules.js';
import { FC_SEED } from './helpers.js';

const shown = (ends: Uint8Array | undefined) => (ends === undefined ? undefined : [...ends].map((v, c) => (v === 1 ? String.fromCharCode(c) : '')).join(''));

t.test('table', async (t) => {
  const cases: Array<[string, string, string | undefined]> = [
    ['abc', '', 'c'],
    ['ab?', '', 'ab'],
    ['a(?:b|cd)', '', 'bd'],
    ['a[x-z]*', '', 'axyz'],
    ['a[x-z]{0,3}', '', 'axyz'],
    ['a[x-z]{0}', '', 'a'],
    ['a[x-z]{2}', '', 'xyz'],
    ['ab', 'i', 'Bb'],
    ['[a-c]', 'i', 'ABCabc'],
    ['a\\d', '', '0123456789'],
    ['a\\.', '', '.'],
    ['a\\x41', '', 'A'],
    ['a\\u0042', '', 'B'],
    ['a\\n', '', '\n'],
    ['a\\b', '', 'a'],
    ['a(?=b)', '', 'a'],
    ['a(?<!b)', '', 'a'],
    ['(?<n>a)b?$', '', 'ab'],
    ['[\\]-]', '', '-]'],
    ['[^\\s\\S]|z', '', 'z'],
    ['a\\é', '', ''],
    // Cannot tell: may match nothing, unknown syntax, or flags that change where a match may end.
    ['a?', '', undefined],
    ['a|', '', undefined],
    ['(a)\\1', '', undefined],
    ['\\p{L}', '', undefined],
    ['a{', '', undefined],
    ['(a', '', undefined],
    ['a', 'm', undefined],
    ['a', 'u', undefined],
  ];
  for (const [source, flags, want] of cases) t.equal(shown(regexEnds(source, flags)), want, `/${source}/${flags}`);
  t.equal(shown(unionEnds(regexEnds('a'), regexEnds('b'))), 'ab', 'union');
  t.equal(unionEnds(regexEnds('a'), undefined), undefined, 'union with "any"');
  t.ok(cannotEnd(regexEnds('a'), 0x62), 'b cannot end /a/');
  t.notOk(cannotEnd(regexEnds('a'), 0x61), 'a can');
  t.notOk(cannotEnd(regexEnds('a'), 0x80), 'a non-ASCII character is not judged');
  t.notOk(cannotEnd(undefined, 0x62), '"any" rules nothing out');
  const maxmind = DEFAULT_RULES.find((r) => r.name === 'maxmind-key');
  t.equal(shown(regexEnds(maxmind?.partial ?? '', maxmind?.flags)), '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz', 'the free partial of the built-ins');
});

t.test('property: every match of a built-in pattern ends with a character of its set', async (t) => {
  const sources = [...DEFAULT_RULES, ...HOME_RULES, EMAIL_RULE, ...PATH_RULES].flatMap((r) => [
    [r.pattern, r.flags ?? ''],
    ...(r.partial === undefined ? [] : [[r.partial, r.flags ?? '']]),
  ]);
  const read = sources.filter(([source, flags]) => regexEnds(source!, flags) !== undefined);
  t.ok(read.length > sources.length / 2, `most built-in patterns are read (${read.length} of ${sources.length})`);
  const chars = fc.constantFrom(...'aAzZ09_-.:/@= \n\t"\'<>xyéK+~'.split(''), 'sk-', 'ghp_', 'AKIA', '/home/', 'eyJ', 'password=', '_mmk', 'Bearer ', 'abc123', 'Q7w', 'x9Y2z', 'glpat-', 'xoxb-', 'https://', '.com');
  const text = fc.array(chars, { maxLength: 40 }).map((parts) => parts.join(''));
  let matched = 0;
  for (const [source, flags] of read) {
    const ends = regexEnds(source!, flags)!;
    const re = new RegExp(`(?:${source})$`, `g${flags}`);
    fc.assert(
      fc.property(text, (s) => {
        for (let from = 0; from < s.length; from++) {
          re.lastIndex = from;
          const m = re.exec(s);
          if (m === null) return true;
          if (m[0].length > 0) {
            matched++;
            const last = s.charCodeAt(s.length - 1);
            return last >= 0x80 || ends[last] === 1;
          }
          from = m.index;
        }
        return true;
      }),
      { numRuns: 100, seed: FC_SEED },
    );
  }
  t.ok(matched > 100, `matches seen (${matched})`);
});
