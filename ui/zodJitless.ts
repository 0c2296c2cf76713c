// zod compiles object parsers with `new Function` where eval is allowed, and finds out by trying it
// once, inside a try. Our Content-Security-Policy allows no eval, so that probe was refused and
// reported as a CSP violation (Chrome's Issues, Lighthouse's best practices) the first time a form
// checked its fields with zod. Jitless zod never probes. zod reads this object when it loads (its
// own chunk, after the entry), so the setting is made before any schema is built; the server keeps
// the compiled parsers.
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };
