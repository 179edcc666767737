// Herald's layer rules, checked in CI by `npm run lint:layers` (dependency-cruiser). docs/architecture.md describes
// the layers. Every rule fails CI when broken.
const SERVICES = '^src/(auth|connections|engagement|publishing|scheduling|media|ai|agent|tools|oauth|events|feeds)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-service-imports-a-transport',
      comment: 'Services are used by the transports (REST, MCP, GPT Actions), never the other way round.',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: ['^src/transports/', '^src/(main|cli|worker-process|sweeps)\\.ts$', '^src/cli/'],
      },
      to: { path: '^src/transports/' },
    },
    {
      name: 'services-import-no-tool',
      comment: 'The tool layer (and the agent over it) is built on the services; a service never reaches up into it.',
      severity: 'error',
      from: { path: '^src/(auth|connections|engagement|publishing|scheduling|media|ai|oauth|events|feeds)/' },
      to: { path: '^src/(tools|agent)/' },
    },
    {
      name: 'platforms-import-no-service',
      comment: 'A network adapter knows its network and the base modules, nothing of what Herald does with it.',
      severity: 'error',
      from: { path: '^src/platforms/' },
      to: { path: [SERVICES, '^src/(context|services|services-[a-z]+|config)\\.ts$', '^src/sandbox/'] },
    },
    {
      name: 'base-imports-no-service',
      comment: 'The base layer (database, errors, crypto, clocks, strings, the outbound address policy) stands alone.',
      severity: 'error',
      from: {
        path: ['^src/db/', '^src/net/', '^src/(errors|clock|crypto|date-time|input-strings|secrets|trust-proxy)\\.ts$'],
      },
      to: { path: [SERVICES, '^src/(context|services|services-[a-z]+)\\.ts$', '^src/transports/', '^src/sandbox/'] },
    },
    {
      name: 'sandbox-stays-apart',
      comment:
        'The simulators are mounted by the composition root and the REST app in sandbox mode; no service depends on them.',
      severity: 'error',
      from: { path: SERVICES },
      to: { path: '^src/sandbox/' },
    },
    {
      name: 'only-entry-points-import-the-composition-root',
      comment:
        'context.ts and services*.ts build every service; only the process entry points call them. Everything else takes its collaborators (or, for transports, the AppContext type from app-context.ts).',
      severity: 'error',
      from: { pathNot: ['^src/(main|worker-process|context|services|services-[a-z]+)\\.ts$', '^src/cli/'] },
      to: { path: '^src/(context|services|services-[a-z]+)\\.ts$' },
    },
    {
      name: 'tools-and-agent-see-only-their-services',
      comment:
        'Tools get ToolServices (tools/services.ts) and the agent a ToolBox: neither reaches for the whole application context.',
      severity: 'error',
      from: { path: '^src/(tools|agent)/' },
      to: { path: '^src/app-context\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycle that exists at run time (cycles made only of type imports are erased with the types).',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(test|bench|web)/' },
  },
};
