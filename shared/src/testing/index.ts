/** The testing kit every package's component tests use: staff fixtures, a fake API, a screen renderer. */
export { createFakeApi, type FakeApi, pageOf, refusal, type SentRequest, staleWrite } from './fakeApi';
export { createFakeLiveEvents, type FakeLiveEvents } from './fakeLiveEvents';
export { queryContractSuite } from './queryContract';
export { findDialog, type RenderScreenOptions, renderScreen } from './renderScreen';
export { StylelessUi } from './StylelessUi';
export { screenWidth } from './screenWidth';
export { staffMember } from './staff';
export { waitlistEntry, waitlistMatch } from './waitlist';
