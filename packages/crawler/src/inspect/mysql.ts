import { CrawlerError } from '../errors.js';
import type { InspectDialect } from './dialect.js';

export const inspectMysql: InspectDialect = () => Promise.reject(new CrawlerError('not yet'));
