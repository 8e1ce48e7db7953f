/** The widths every screen is checked and pictured at (test/support/browser.ts `picture`): a desktop's, a phone's. */
export const screenshotWidths = { bureau: 1280, telephone: 390 } as const;
