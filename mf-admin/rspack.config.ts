import { createFrontendConfig } from '../rspack.config.base';

export default createFrontendConfig({
  dir: __dirname,
  containerName: 'mf_admin',
  devPort: 3105,
  exposes: { './module': './src/module.tsx' },
});
