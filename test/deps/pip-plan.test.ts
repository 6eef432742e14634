// pip-plan: what deps --install hands pip without --allow-local, line by line as pip reads it.
import { describe, expect, it } from 'vitest';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pipPlan } from '../../src/deps/pip-plan.js';
import { tempProject } from '../helpers.js';

describe('pipPlan', () => {
  const p = tempProject({ 'reg/t.yaml': '' });
  const contract = join(p.dir, 'reg', 't.yaml');
  const plan = (v: string[] | string) => pipPlan(v, contract, p.dir);

  it.each([
    ['requests>=2.28,<3', 'requests>=2.28,<3'],
    ['tomli; python_version < "3.11"', 'tomli; python_version < "3.11"'],
    ['requests[socks]==2.32.3 --hash=sha256:abcd', 'requests[socks]==2.32.3 --hash=sha256:abcd'],
    ['pkg==1 --hash sha256:ab --hash=sha256:cd', 'pkg==1 --hash=sha256:ab --hash=sha256:cd'],
    ['./wheels/a-1.0-py3-none-any.whl', join(p.dir, 'reg', 'wheels', 'a-1.0-py3-none-any.whl')],
    ['a @ https://files.example/a-1.0-py3-none-any.whl', 'a @ https://files.example/a-1.0-py3-none-any.whl'],
    ['a @ file:./w/a-1.0-py3-none-any.whl', `a @ file://${join(p.dir, 'reg', 'w', 'a-1.0-py3-none-any.whl')}`],
  ])('keeps %s', (line, text) => {
    const r = plan([line]);
    expect(r.refused).toBeUndefined();
    expect(r.requirements.map((l) => l.text)).toEqual([text]);
  });

  it.each([
    ['-e ./pkg', /editable/],
    ['--editable=git+https://x/y.git', /editable/],
    ['./localpkg', /local folder or sdist/],
    ['./dist/a-1.0.tar.gz', /local folder or sdist/],
    ['a @ https://x/a-1.0.tar.gz', /not an https wheel/],
    ['a @ https://x/a-1.0.tar.gz?download=1', /not an https wheel/],
    ['a @ http://x/a-1.0-py3-none-any.whl', /not an https wheel/],
    ['https://x/a-1.0.zip#egg=a', /not an https wheel/],
    ['git+https://x/y.git#egg=y', /version-control/],
    ['y @ git+ssh://git@x/y.git', /version-control/],
    ['--find-links ./dists', /find-links/],
    ['-f https://x/', /find-links/],
    ['--index-url https://evil/simple', /package index/],
    ['--extra-index-url=https://evil/simple', /package index/],
    ['--trusted-host evil', /trusted-host/],
    ['--no-binary :all:', /build from source/],
    ['a --config-settings=x=y', /--config-settings/],
    ['a --global-option=build_ext', /--global-option/],
    ['--use-feature=x', /building from source/],
    ['--some-new-option', /not one toolbox passes on/],
    ['a @ https://x/${HOME}/a-1-py3-none-any.whl', /VARIABLE/],
    ['not a requirement !!', /PEP 508/],
  ])('refuses %s', (line, why) => {
    const r = plan([line]);
    expect(r.refused?.why).toMatch(why);
    expect(r.refused?.raw).toBe(line);
  });

  it('reads requirement files as pip does: continuations, comments, -r and -c, kept options, file:line', () => {
    p.write(
      'reg/req.txt',
      '# top\n--pre\nrequests \\\n  >=2  # comment\n-r more.txt\n-c constraints.txt\n--only-binary :all:\n',
    );
    p.write('reg/more.txt', '--require-hashes\nsix==1.16.0 --hash=sha256:1e\n');
    p.write('reg/constraints.txt', 'urllib3<3\n');
    const r = plan('req.txt');
    expect(r.refused).toBeUndefined();
    expect(r.requirements.map((l) => [l.text, l.where])).toEqual([
      ['requests   >=2', `${join(p.dir, 'reg', 'req.txt')}:3`],
      ['six==1.16.0 --hash=sha256:1e', `${join(p.dir, 'reg', 'more.txt')}:2`],
    ]);
    expect(r.constraints.map((l) => l.text)).toEqual(['urllib3<3']);
    expect(r.options).toEqual(['--pre', '--require-hashes']);
    expect(r.allLocal).toBe(false);
    p.write('reg/more.txt', 'six\n\n--find-links ./d\n');
    // A line of a file is named by file:line, never quoted (issue 34 item 1).
    expect(plan('req.txt').refused).toMatchObject({ where: `${join(p.dir, 'reg', 'more.txt')}:3`, raw: '' });
  });

  it('reads only files named like requirements files, inside the project, never through a link out', () => {
    p.write('reg/keys.yaml', 'AWS_SECRET_ACCESS_KEY=abc\n');
    expect(plan('keys.yaml').refused).toMatchObject({ raw: '', why: expect.stringMatching(/requirements file/) });
    symlinkSync('/etc/hostname', join(p.dir, 'reg', 'host.txt'));
    expect(plan('host.txt').refused).toMatchObject({ raw: '', why: expect.stringMatching(/outside the project/) });
    expect(plan('../../../../../../etc/passwd.txt').refused?.why).toMatch(/outside the project/);
  });

  it('leaves out the interpreter’s own version and knows when everything is local', () => {
    const r = plan(['python>=3.10', './w/a-1.0-py3-none-any.whl']);
    expect(r.requirements).toHaveLength(1);
    expect(r.allLocal).toBe(true);
  });
});
