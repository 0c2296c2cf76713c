// deploy/compose.yaml, its Caddyfile, the Dockerfile and .dockerignore read as Docker would read them
// (no Docker engine here: docs/deploy.md section 9 says what this does and does not prove).
import fs from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.js';
import { parseSystemdEnv } from '../../helpers/systemdEnv.js';

interface Service {
  command?: string[];
  env_file?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test?: string[]; disable?: boolean };
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
}

const compose = parse(fs.readFileSync('deploy/compose.yaml', 'utf8'), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const services = compose.services;
const appServices = Object.entries(services).filter(([, s]) => s.command?.includes('serve'));
const DATA_DIR = '/var/lib/lab';
const READY_CHECK = "fetch('http://127.0.0.1:3000/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))";

/** The Dockerfile's instructions, in order, as [INSTRUCTION, arguments]. */
const dockerfile = fs
  .readFileSync('deploy/Dockerfile', 'utf8')
  .split('\n')
  .filter((line) => line.trim() && !line.trim().startsWith('#'))
  .map((line) => {
    const [instruction, ...rest] = line.trim().split(/\s+/);
    return [instruction.toUpperCase(), rest.join(' ')] as const;
  });

describe('deploy/compose.yaml', () => {
  it('runs two app instances and the migrate job', () => {
    expect(appServices.map(([name]) => name)).toEqual(['app1', 'app2']);
    expect(services.migrate.command).toEqual(['node', 'bin/labctl', 'migrate', 'latest']);
  });

  it('gives the migrate job and every instance the same SECRET_KEY from one env file, never written in compose.yaml', () => {
    for (const [, service] of [['migrate', services.migrate] as const, ...appServices]) {
      expect(service.env_file).toEqual(['compose.env']);
      expect(service.environment).not.toHaveProperty('SECRET_KEY');
    }
    expect(fs.readFileSync('deploy/compose.yaml', 'utf8')).not.toMatch(/SECRET_KEY\s*[:=]/);
    // The example the document tells the admin to copy names SECRET_KEY, with a placeholder the
    // server refuses, so a copy left unedited cannot run with a published secret.
    const example = parseSystemdEnv(fs.readFileSync('deploy/compose.env.example', 'utf8'));
    expect(Object.keys(example)).toEqual(['SECRET_KEY']);
    expect(() => loadConfig(example)).toThrow(/SECRET_KEY: use at least 32 characters/);
    expect(fs.readFileSync('docs/deploy.md', 'utf8')).toContain('cp deploy/compose.env.example deploy/compose.env\nsed -i "s/^SECRET_KEY=.*/SECRET_KEY=$(openssl rand -hex 32)/" deploy/compose.env');
    expect(fs.readFileSync('.gitignore', 'utf8').split('\n')).toContain('deploy/compose.env');
  });

  it('trusts the proxy, on one PostgreSQL, and checks readiness on /readyz', () => {
    for (const [, service] of appServices) {
      const config = loadConfig({ ...service.environment, SECRET_KEY: 'k'.repeat(64) });
      expect(config.trustProxy).toBe(true);
      expect(config.database).toMatchObject({ client: 'pg', connectionString: 'postgres://lab:lab@db:5432/lab' });
      expect(service.healthcheck?.test).toEqual(['CMD', 'node', '-e', READY_CHECK]);
      expect(service.depends_on).toEqual({ migrate: { condition: 'service_completed_successfully' } });
    }
    expect(services.proxy.depends_on).toEqual(Object.fromEntries(appServices.map(([name]) => [name, { condition: 'service_healthy' }])));
  });

  it("mounts a named volume of each instance's own on the image's DATA_DIR", () => {
    const mounts = appServices.map(([, s]) => s.volumes);
    expect(mounts).toEqual([[`app1-data:${DATA_DIR}`], [`app2-data:${DATA_DIR}`]]);
    expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(['app1-data', 'app2-data']));
  });

  it("sends Caddy's calls to the app services on the port they serve", () => {
    const caddyfile = fs.readFileSync('deploy/Caddyfile', 'utf8');
    const upstreams = /^\s*reverse_proxy\s+(.+?)\s*\{/m.exec(caddyfile)![1].split(/\s+/);
    const served = appServices.map(([name, s]) => `${name}:${s.command![s.command!.indexOf('--port') + 1]}`);
    expect(upstreams).toEqual(served);
    expect(caddyfile).toMatch(/health_uri \/readyz/);
    expect(services.proxy.volumes).toEqual(['./Caddyfile:/etc/caddy/Caddyfile:ro']);
  });
});

describe('deploy/Dockerfile and .dockerignore', () => {
  it('runs as a user other than root that owns DATA_DIR, a declared volume', () => {
    const users = dockerfile.filter(([i]) => i === 'USER').map(([, user]) => user);
    expect(users.at(-1)).toBe('node');
    const envs = dockerfile.filter(([i]) => i === 'ENV').map(([, env]) => env);
    expect(envs).toContain(`DATA_DIR=${DATA_DIR}`);
    expect(dockerfile).toContainEqual(['VOLUME', DATA_DIR]);
    expect(dockerfile).toContainEqual(['RUN', `install -d -o node -g node -m 0700 ${DATA_DIR}`]);
    // The directory is made before switching user, and the server is what runs.
    const at = (instruction: string, args?: string) => dockerfile.findIndex(([i, a]) => i === instruction && (args === undefined || a === args));
    expect(at('RUN', `install -d -o node -g node -m 0700 ${DATA_DIR}`)).toBeLessThan(at('USER'));
    expect(dockerfile.at(-1)).toEqual(['CMD', '["node", "bin/labctl", "serve"]']);
  });

  it('keeps dependencies, builds, data, git, test output and secrets out of the build context', () => {
    const entries = fs.readFileSync('.dockerignore', 'utf8').split('\n').filter((line) => line && !line.startsWith('#'));
    expect(entries).toEqual(expect.arrayContaining(['node_modules', 'dist', 'data', '.git', 'test-results', 'playwright-report', 'coverage', '*.log', '.env', 'deploy/compose.env']));
    // compose builds from the repository root, where this .dockerignore applies.
    expect(services.app1).toMatchObject({ build: { context: '..', dockerfile: 'deploy/Dockerfile' } });
  });
});
