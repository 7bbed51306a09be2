import { createFrontendConfig } from '../rspack.config.base';

export default createFrontendConfig({
  dir: __dirname,
  containerName: 'mf_booking',
  devPort: 3106,
  // `./module` describes the module to the staff app's Modules page; `./public` is the patients' pages.
  exposes: { './module': './src/module.tsx', './public': './src/public.tsx' },
});
