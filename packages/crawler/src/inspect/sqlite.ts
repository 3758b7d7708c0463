import { CrawlerError } from '../errors.js';
import type { InspectDialect } from './dialect.js';

export const inspectSqlite: InspectDialect = () => Promise.reject(new CrawlerError('not yet'));
