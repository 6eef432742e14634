import { describe, expect, it } from 'vitest';
import { envRefs, fill, fillArgv, fillEnv, fillValue, lookup } from '../../src/contract/template.js';

describe('{{param}} templates', () => {
  const args = {
    s: 'a b "c"',
    n: 3,
    f: 1.5,
    t: true,
    no: false,
    arr: [1, 'x'],
    obj: { city: '北京', zip: null },
    nil: null,
  };

  it('fillArgv: one element per template element; types become text; arrays/objects JSON', () => {
    expect(
      fillArgv(['--s', '{{s}}', '{{n}}', '{{f}}', '{{t}}', '{{no}}', '{{arr}}', '{{obj}}', '{{ obj.city }}'], args),
    ).toEqual(['--s', 'a b "c"', '3', '1.5', 'true', 'false', '[1,"x"]', '{"city":"北京","zip":null}', '北京']);
  });

  it('fillArgv: an element that is exactly a missing/null placeholder is dropped; inside text it is empty', () => {
    expect(fillArgv(['a', '{{missing}}', '{{nil}}', '--x={{missing}}', 'b'], args)).toEqual(['a', '--x=', 'b']);
  });

  it('fill applies the encoder to values only', () => {
    expect(fill('/q/{{s}}?x={{n}}', args, encodeURIComponent)).toBe('/q/a%20b%20%22c%22?x=3');
  });

  it('fillValue keeps types for exact placeholders and drops keys whose argument is missing', () => {
    const env = (s: string) => fillEnv(s, { TOKEN: 'T' });
    expect(
      fillValue({ a: '{{n}}', b: ['{{t}}', 'n={{n}}'], c: '{{missing}}', d: '${TOKEN}:{{s}}', e: 7 }, args, env),
    ).toEqual({ a: 3, b: [true, 'n=3'], d: 'T:a b "c"', e: 7 });
  });

  it('placeholders see own properties only, never Object.prototype members', () => {
    const a = { obj: { city: 'x' } };
    for (const p of [
      'toString',
      'valueOf',
      'constructor',
      'hasOwnProperty',
      '__proto__',
      'obj.toString',
      'obj.constructor',
      'obj.city.length',
    ]) {
      expect(lookup(a, p), p).toBeUndefined();
    }
    expect(fill('[{{toString}}|{{obj.valueOf}}|{{constructor}}]', a)).toBe('[||]');
    expect(fillArgv(['a', '{{toString}}', '--x={{valueOf}}', '{{obj.hasOwnProperty}}'], a)).toEqual(['a', '--x=']);
    expect(fillValue({ k: '{{toString}}', v: ['{{valueOf}}'] }, a, (s) => s)).toEqual({ v: [null] });
    // An argument that really has such a name is used.
    const own = JSON.parse('{"toString": "t", "__proto__": "p", "o": {"valueOf": 3}}');
    expect(fillArgv(['{{toString}}', '{{__proto__}}', '{{o.valueOf}}'], own)).toEqual(['t', 'p', '3']);
  });

  it('${VAR} placeholders see own entries of the environment only', () => {
    expect(fillEnv('[${toString}|${constructor}|${A}]', { A: 'a' })).toBe('[||a]');
  });

  it('envRefs finds ${VAR} in nested templates', () => {
    expect([...envRefs(['${A}', { h: 'x ${B} ${A}' }, null, 3])].sort()).toEqual(['A', 'B']);
  });
});
