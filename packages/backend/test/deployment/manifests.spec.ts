// The example Kubernetes manifests (deploy/kubernetes, docs/operations.md "Kubernetes") against the
// Kubernetes API's JSON schemas (kubernetes-models' validation), strictly (an unknown field, which the
// API's schemas let through and the API server drops, is refused by TypeScript's excess-property check
// against the same models' types), and against what the images really are: the variables the backend
// reads, its port and health routes, the Secrets they name.
// docker-compose.yml is held to the same: readiness healthchecks, the one-shot migrate + seed job.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { Deployment } from 'kubernetes-models/apps/v1';
import { CronJob, Job } from 'kubernetes-models/batch/v1';
import { Secret, Service } from 'kubernetes-models/v1';
import ts from 'typescript';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { ENV_VARIABLES, loadConfig } from '../../src/config/config.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const MANIFESTS = join(ROOT, 'deploy', 'kubernetes');

// Each model's constructor takes its own kind's shape; what a document holds is checked by validate().
type ModelClass = new (data: never) => { validate(): void };
const MODELS: Record<string, ModelClass> = {
  'apps/v1 Deployment': Deployment,
  'batch/v1 Job': Job,
  'batch/v1 CronJob': CronJob,
  'v1 Service': Service,
  'v1 Secret': Secret,
};

/** The models' TypeScript types, by apiVersion and kind: [module, interface]. */
const TYPES: Record<string, [string, string]> = {
  'apps/v1 Deployment': ['kubernetes-models/apps/v1/Deployment', 'IDeployment'],
  'batch/v1 Job': ['kubernetes-models/batch/v1/Job', 'IJob'],
  'batch/v1 CronJob': ['kubernetes-models/batch/v1/CronJob', 'ICronJob'],
  'v1 Service': ['kubernetes-models/v1/Service', 'IService'],
  'v1 Secret': ['kubernetes-models/v1/Secret', 'ISecret'],
};

/**
 * Type-checks each document as an object literal of its model's type, in memory: TypeScript refuses a
 * property the type does not have (a misspelt or misplaced field), which the JSON schemas accept.
 */
function unknownFields(documents: readonly object[], kinds: readonly string[]): string[] {
  const file = fileURLToPath(new URL('./manifests.check.ts', import.meta.url));
  const imports = Object.entries(TYPES).map(
    ([, [module, name]]) => `import type { ${name} } from '${module}';`,
  );
  const lines = documents.map(
    (doc, i) => `export const doc${i}: ${TYPES[kinds[i]][1]} = ${JSON.stringify(doc)};`,
  );
  const source = [...imports, ...lines].join('\n');
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  host.readFile = (name) => (name === file ? source : readFile(name));
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest);
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n').at(-1)!);
}

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  [key: string]: unknown;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  ports?: { name: string; containerPort: number }[];
  readinessProbe?: { httpGet: { path: string; port: string } };
  livenessProbe?: { httpGet: { path: string; port: string } };
  startupProbe?: { httpGet: { path: string; port: string } };
  resources?: { requests?: object; limits?: object };
}
interface PodSpec {
  containers: Container[];
  restartPolicy?: string;
  securityContext?: { runAsNonRoot?: boolean };
}

const manifests: (Manifest & { file: string })[] = readdirSync(MANIFESTS)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .flatMap((file) =>
    parseAllDocuments(readFileSync(join(MANIFESTS, file), 'utf8')).map((doc) => {
      expect(doc.errors).toEqual([]);
      return { ...(doc.toJS() as Manifest), file };
    }),
  );
const find = (kind: string, name: string): Manifest => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in deploy/kubernetes`);
  return found;
};
const podSpec = (m: Manifest): PodSpec => {
  const spec = m['spec'] as Record<string, unknown>;
  if (m.kind === 'CronJob') {
    return (spec['jobTemplate'] as { spec: { template: { spec: PodSpec } } }).spec.template.spec;
  }
  return (spec['template'] as { spec: PodSpec }).spec;
};
const workloads = () => manifests.filter((m) => ['Deployment', 'Job', 'CronJob'].includes(m.kind));

describe('deploy/kubernetes', () => {
  it('holds the backend Deployment and Service, the migrate Job, a crawler CronJob and their Secrets', () => {
    expect(manifests.map((m) => `${m.kind} ${m.metadata.name}`).sort()).toEqual([
      'CronJob aide-crawler-shop',
      'Deployment aide-metastore',
      'Job aide-metastore-migrate',
      'Secret aide-crawler-shop',
      'Secret aide-metastore',
      'Service aide-metastore',
    ]);
  });

  it.each(manifests.map((m) => [`${m.file}: ${m.kind} ${m.metadata.name}`, m] as const))(
    '%s validates against the Kubernetes schema',
    (_name, manifest) => {
      const { file: _file, ...data } = manifest;
      const model = MODELS[`${manifest.apiVersion} ${manifest.kind}`];
      expect(model).toBeDefined();
      expect(() => new model(data as never).validate()).not.toThrow();
    },
  );

  it('no manifest has a field its kind does not know', () => {
    const documents = manifests.map(({ file: _file, ...data }) => data);
    expect(
      unknownFields(
        documents,
        manifests.map((m) => `${m.apiVersion} ${m.kind}`),
      ),
    ).toEqual([]);
  }, 60_000);

  it('the checks bite: a wrong type fails the schema, a misspelt field the type check', () => {
    const { file: _file, ...deployment } = find('Deployment', 'aide-metastore');
    const broken = structuredClone(deployment);
    (broken['spec'] as { replicas: unknown }).replicas = 'two';
    expect(() => new Deployment(broken as never).validate()).toThrow(/replicas/);
    const misspelt = structuredClone(deployment);
    (misspelt['spec'] as Record<string, unknown>)['replica'] = 2;
    expect(unknownFields([misspelt], ['apps/v1 Deployment'])).toEqual([
      expect.stringMatching(/"replica"' does not exist in type 'IDeploymentSpec'/),
    ]);
  }, 60_000);

  it('every workload runs as non-root with resource requests and memory limits', () => {
    for (const m of workloads()) {
      const spec = podSpec(m);
      expect([m.metadata.name, spec.securityContext?.runAsNonRoot]).toEqual([m.metadata.name, true]);
      for (const c of spec.containers) {
        expect([m.metadata.name, c.resources?.requests, c.resources?.limits]).toEqual([
          m.metadata.name,
          expect.objectContaining({ cpu: expect.any(String), memory: expect.any(String) }),
          expect.objectContaining({ memory: expect.any(String) }),
        ]);
      }
    }
  });

  it('every Secret a workload reads is in secrets.example.yaml with that key', () => {
    const secrets = new Map(
      manifests
        .filter((m) => m.kind === 'Secret')
        .map((m) => [m.metadata.name, Object.keys(m['stringData'] as object)]),
    );
    const refs = workloads().flatMap((m) =>
      podSpec(m).containers.flatMap((c) => (c.env ?? []).flatMap((e) => e.valueFrom?.secretKeyRef ?? [])),
    );
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs)
      expect([ref.name, secrets.get(ref.name)]).toEqual([ref.name, expect.arrayContaining([ref.key])]);
  });

  describe('the backend', () => {
    const backendContainers = () =>
      [find('Deployment', 'aide-metastore'), find('Job', 'aide-metastore-migrate')].map(
        (m) => podSpec(m).containers[0],
      );

    it('sets only variables the server reads, with values it accepts', () => {
      for (const container of backendContainers()) {
        const names = (container.env ?? []).map((e) => e.name);
        expect(names.filter((n) => !ENV_VARIABLES.includes(n))).toEqual([]);
        // The literal values as the server parses them; the Secrets' with valid stand-ins.
        const env: Record<string, string> = {
          DATABASE_URL: 'postgres://aide@db.internal:5432/aide',
          AIDE_JWT_SECRET: 'x'.repeat(48),
          AIDE_SUPERUSER_EMAIL: 'admin@example.com',
          AIDE_SUPERUSER_PASSWORD: 'a-long-password',
        };
        for (const e of container.env ?? []) if (e.value !== undefined) env[e.name] = e.value;
        expect(() => loadConfig(env, { requireJwtSecret: true })).not.toThrow();
      }
    });

    it('probes readiness on /health/ready and liveness on /health/live, on the port the image exposes', () => {
      const [container] = backendContainers();
      const exposed = /^EXPOSE\s+(\d+)$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1];
      expect(container.ports).toEqual([{ name: 'http', containerPort: Number(exposed) }]);
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/health/ready', port: 'http' });
      expect(container.livenessProbe?.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(container.startupProbe?.httpGet).toEqual({ path: '/health/live', port: 'http' });
    });

    it('the migrate Job migrates then seeds, once, with the backend image', () => {
      const job = find('Job', 'aide-metastore-migrate');
      const [container] = podSpec(job).containers;
      expect(container.command).toEqual(['sh', '-c', 'node dist/cli.js migrate && node dist/cli.js seed']);
      expect(container.image).toBe(backendContainers()[0].image);
      expect(podSpec(job).restartPolicy).toBe('Never');
    });
  });

  it('the crawler CronJob runs `crawl --check` and fails at once on the answers 2, 3 and 4', () => {
    const cronJob = find('CronJob', 'aide-crawler-shop');
    const [container] = podSpec(cronJob).containers;
    expect(container.args?.slice(0, 1)).toEqual(['crawl']);
    expect(container.args).toEqual(expect.arrayContaining(['--check', '--format', 'json']));
    expect((container.env ?? []).find((e) => e.name === 'AIDE_CRAWLER_CONNECTION_URL')?.valueFrom).toEqual({
      secretKeyRef: { name: 'aide-crawler-shop', key: 'connection-url' },
    });
    const jobSpec = (cronJob['spec'] as { jobTemplate: { spec: Record<string, unknown> } }).jobTemplate.spec;
    expect(jobSpec['podFailurePolicy']).toMatchObject({
      rules: expect.arrayContaining([
        expect.objectContaining({
          action: 'FailJob',
          onExitCodes: expect.objectContaining({ values: [2, 3, 4] }),
        }),
      ]),
    });
    // podFailurePolicy requires it.
    expect(podSpec(cronJob).restartPolicy).toBe('Never');
  });
});

describe('docker-compose.yml', () => {
  interface Service {
    command?: string[];
    depends_on?: Record<string, { condition: string }>;
    healthcheck?: { test: string[] };
  }
  const compose = parseYaml(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, Service>;
  };

  it('migrates and seeds once, before the backend starts', () => {
    expect(compose.services['migrate']?.command).toEqual([
      'sh',
      '-c',
      'node dist/cli.js migrate && node dist/cli.js seed',
    ]);
    expect(compose.services['backend']?.depends_on).toEqual({
      migrate: { condition: 'service_completed_successfully' },
    });
  });

  it("checks the backend's health on readiness", () => {
    expect(compose.services['backend']?.healthcheck?.test.join(' ')).toContain('/health/ready');
  });
});
