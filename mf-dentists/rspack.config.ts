import { createFrontendConfig } from '../rspack.config.base';

export default createFrontendConfig({
  dir: __dirname,
  containerName: 'mf_dentists',
  devPort: 3103,
  exposes: { './module': './src/module.tsx' },
});
