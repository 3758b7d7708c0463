import { SystemCrawlRuns } from './Dataset';

export function CrawlRuns() {
  return (
    <section>
      <h1>Crawl runs</h1>
      <SystemCrawlRuns />
    </section>
  );
}
