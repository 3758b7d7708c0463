// InMemoryMetadataProvider built from model arrays: the whole conformance suite.
import { InMemoryMetadataProvider } from '../../src/provider/index.js';
import { describeProviderConformance, HTTP_ONLY_CASES } from './conformance.js';

describeProviderConformance(
  'InMemoryMetadataProvider',
  (scope, options) => {
    const provider = new InMemoryMetadataProvider({ ...options, ...scope });
    return { provider, setScope: (next) => provider.setMetadata(next) };
  },
  {
    notApplicable: {
      ...HTTP_ONLY_CASES,
    },
  },
);
