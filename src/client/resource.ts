/** Base of the resource classes: each holds the client and adds one-line typed methods. */
import type { ImportClient } from './client.js';

/** A section of the seed: a group of calls sharing a path. */
export abstract class Resource {
  constructor(protected readonly client: ImportClient) {}
}
