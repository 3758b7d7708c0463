/**
 * The registered routes, recorded from Fastify's onRoute hook, so an unknown path can be told apart
 * from a known path called with the wrong method (404 vs 405).
 */
export class RouteTable {
  private readonly routes: { method: string; pattern: RegExp }[] = [];
  private readonly registered: { method: string; url: string }[] = [];

  add(method: string | string[], url: string): void {
    const source = url
      .replace(/\/+$/, '')
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const pattern = new RegExp(`^${source}/?$`);
    for (const m of Array.isArray(method) ? method : [method])
      this.registered.push({ method: m.toUpperCase(), url });
    for (const m of Array.isArray(method) ? method : [method])
      this.routes.push({ method: m.toUpperCase(), pattern });
  }

  /** Methods allowed on a concrete path; empty when no route matches it. */
  allowedMethods(path: string): string[] {
    const clean = path.split('?')[0] ?? path;
    const methods = new Set<string>();
    for (const route of this.routes) if (route.pattern.test(clean)) methods.add(route.method);
    return [...methods].sort();
  }

  /** Every registered route as Fastify knows it: method and URL pattern (`/api/v1/systems/:id`). */
  entries(): readonly { method: string; url: string }[] {
    return this.registered;
  }
}
