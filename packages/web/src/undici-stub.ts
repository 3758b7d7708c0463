// Stands in for undici in the browser bundle (vite.config.ts): the UI's client is built with `fetch`,
// so the SDK never constructs an Agent. Constructing one here is a bug, and says so.
export class Agent {
  constructor() {
    throw new Error('undici is not available in the browser: construct AideClient with `fetch`.');
  }
}
