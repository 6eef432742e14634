// deploy/kubernetes/ checked against serve itself: the Deployment's arguments are run by the real
// CLI (its own parser accepts every flag), the probes' paths answer on the port the container
// declares, the grace period outlasts --drain, and every selector finds the pods it means.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, testConfigEnv } from '../helpers.js';
import { serveProject } from '../serve/fixtures.js';
// @ts-expect-error: a plain ES module shared with the bench (no types)
import { freePort, startReplica } from '../../deploy/local-cluster.mjs';

type Doc = Record<string, any>;
const docs: Doc[] = ['toolbox.yaml', 'redis.yaml'].flatMap((f) =>
  parseAllDocuments(readFileSync(join(REPO, 'deploy', 'kubernetes', f), 'utf8')).map((d) => {
    if (d.errors.length) throw new Error(`${f}: ${d.errors[0]!.message}`);
    return d.toJS() as Doc;
  }),
);
const find = (kind: string, name: string) => docs.find((d) => d.kind === kind && d.metadata?.name === name)!;
const deploy = find('Deployment', 'toolbox');
const pod = deploy.spec.template.spec;
const serve = pod.containers.find((c: Doc) => c.name === 'serve');
const args: string[] = serve.args;
const flag = (name: string) => args[args.indexOf(name) + 1];
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);
let replica: { child: import('node:child_process').ChildProcess; exited: Promise<unknown>; base: string } | undefined;

const proj = serveProject();
afterAll(async () => {
  replica?.child.kill('SIGINT');
  await replica?.exited;
  proj.cleanup();
});

describe('deploy/kubernetes', () => {
  it('selectors of the Deployment, Service, PDB and HPA find the serve pods, and only them', () => {
    const labels = deploy.spec.template.metadata.labels;
    expect(matches(deploy.spec.selector.matchLabels, labels)).toBe(true);
    expect(matches(find('Service', 'toolbox').spec.selector, labels)).toBe(true);
    expect(matches(find('PodDisruptionBudget', 'toolbox').spec.selector.matchLabels, labels)).toBe(true);
    const redisLabels = find('StatefulSet', 'toolbox-redis').spec.template.metadata.labels;
    expect(matches(find('Service', 'toolbox').spec.selector, redisLabels)).toBe(false);
    expect(matches(find('Service', 'toolbox-redis').spec.selector, redisLabels)).toBe(true);
    const hpa = find('HorizontalPodAutoscaler', 'toolbox');
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'toolbox' });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(find('PodDisruptionBudget', 'toolbox').spec.minAvailable + 1);
    expect(find('Service', 'toolbox').spec.sessionAffinity).toBe('ClientIP');
  });

  it('ports, secrets and the grace period agree with the arguments', () => {
    const port = Number(flag('--http'));
    expect(serve.ports.find((p: Doc) => p.name === 'mcp').containerPort).toBe(port);
    expect(find('Service', 'toolbox').spec.ports[0].targetPort).toBe('mcp');
    for (const probe of [serve.livenessProbe, serve.readinessProbe, serve.startupProbe])
      expect(probe.httpGet.port).toBe('mcp');
    const drainS = Number(/^(\d+)s$/.exec(flag('--drain')!)![1]);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(drainS);
    const env = Object.fromEntries(serve.env.map((e: Doc) => [e.name, e]));
    expect(env[flag('--token-env')!].valueFrom.secretKeyRef.name).toBe('toolbox-token');
    const pwFile: string = env.TOOLBOX_STATE_PASSWORD_FILE.value;
    const mount = serve.volumeMounts.find((m: Doc) => pwFile.startsWith(`${m.mountPath}/`));
    const vol = pod.volumes.find((v: Doc) => v.name === mount.name);
    expect(vol.secret.secretName).toBe('toolbox-redis');
    expect(pwFile.slice(mount.mountPath.length + 1)).toBe('password');
    // What the sandbox needs, and what keeps the container tight.
    expect(pod.hostUsers).toBe(false);
    expect(serve.securityContext).toMatchObject({
      procMount: 'Unmasked',
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(serve.volumeMounts.some((m: Doc) => m.mountPath === '/tmp')).toBe(true);
    expect(serve.resources.limits.memory).toBeDefined();
  });

  it('the real CLI accepts the arguments and answers the probes on their paths', async () => {
    // The manifest's own arguments, but on loopback, a free port and a test project's registry.
    const run = [...args];
    run.splice(0, 1); // `serve` (startReplica adds it)
    const drop = (name: string) => run.splice(run.indexOf(name), 2);
    for (const f of ['--http', '--host', '--registry', '--token-env']) drop(f);
    replica = await startReplica({
      registry: join(proj.dir, 'tool_registry'),
      cwd: proj.dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...testConfigEnv() },
      token: 'kubernetes-test-token-0123456789',
      port: await freePort(),
      args: run,
    });
    for (const probe of [serve.livenessProbe, serve.readinessProbe, serve.startupProbe]) {
      const r = await fetch(`${replica!.base}${probe.httpGet.path}`);
      expect(r.status, probe.httpGet.path).toBe(200);
    }
  }, 90_000);
});
