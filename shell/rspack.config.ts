import { createFrontendConfig } from '../rspack.config.base';

export default createFrontendConfig({
  dir: __dirname,
  containerName: 'shell',
  devPort: 3100,
  isHost: true,
  pages: [
    {
      name: 'main',
      entry: './src/index.ts',
      template: './src/index.html',
      filename: 'index.html',
      title: 'Dental Clinic',
    },
    // The patients' pages (docs/architecture.md, Online booking): nothing of the staff app, only the booking module.
    {
      name: 'book',
      entry: './src/booking/index.ts',
      template: './src/booking/book.html',
      filename: 'book.html',
      title: 'Book a visit',
    },
  ],
});
