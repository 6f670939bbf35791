/**
 * Consent walls hidden when a capture has `blockCookieBanners`, and the scroll locks they leave
 * behind. Per platform: the banner, preference dialog, backdrop and floating "reopen" button.
 * Where the selectors come from and how to refresh them: ./README.md.
 *
 * Never list a selector that can match <html> or <body>, or that matches ordinary page content
 * (the generic names below are whole-word class/id matches, not substrings).
 */
export interface ConsentPlatform {
  name: string;
  /** Elements to hide. */
  hide: readonly string[];
  /** Classes the platform puts on <html> or <body> while its wall locks scrolling. */
  lockClasses?: readonly string[];
}

export const CONSENT_PLATFORMS: readonly ConsentPlatform[] = [
  {
    name: "OneTrust",
    hide: [
      "#onetrust-consent-sdk",
      "#onetrust-banner-sdk",
      "#onetrust-pc-sdk",
      ".onetrust-pc-dark-filter",
      "#ot-sdk-btn-floating",
    ],
    lockClasses: ["ot-overflow-hidden"],
  },
  {
    name: "Cookiebot",
    hide: ["#CybotCookiebotDialog", "#CybotCookiebotDialogBodyUnderlay", "#CookiebotWidget"],
  },
  {
    name: "Quantcast Choice",
    hide: [
      "#qc-cmp2-container",
      ".qc-cmp2-container",
      "#qc-cmp2-persistent-link",
      ".qc-cmp-cleanslate",
      "#qcCmpUi",
    ],
    lockClasses: ["qc-cmp-ui-showing", "qc-cmp2-showing"],
  },
  {
    name: "Didomi",
    hide: ["#didomi-host", "#didomi-notice", "#didomi-popup", ".didomi-popup-backdrop"],
    lockClasses: ["didomi-popup-open", "didomi-popup-open-ios"],
  },
  {
    name: "TrustArc",
    hide: [
      "#truste-consent-track",
      "#truste-consent-content",
      "#consent_blackbar",
      ".truste_overlay",
      ".truste_box_overlay",
      ".truste_popframe",
    ],
  },
  {
    name: "Usercentrics",
    hide: [
      "#usercentrics-root",
      "#usercentrics-cmp-ui",
      "#uc-banner-modal",
      "#uc-center-container",
    ],
  },
  {
    name: "Osano",
    hide: [".osano-cm-window", ".osano-cm-dialog", ".osano-cm-widget"],
  },
  {
    name: "CookieYes",
    hide: [
      ".cky-consent-container",
      ".cky-overlay",
      ".cky-btn-revisit-wrapper",
      "#cookie-law-info-bar",
      "#cookie-law-info-again",
      ".cli-modal-backdrop",
    ],
    lockClasses: ["cky-modal-open", "cli-modal-open"],
  },
  {
    name: "iubenda",
    hide: ["#iubenda-cs-banner", "#iubenda-iframe", ".iubenda-cs-overlay", ".iubenda-tp-btn"],
  },
  {
    name: "Complianz",
    hide: [
      "#cmplz-cookiebanner-container",
      ".cmplz-cookiebanner",
      ".cmplz-soft-cookiewall",
      "#cmplz-manage-consent",
    ],
  },
  {
    name: "Sourcepoint",
    hide: ['[id^="sp_message_container_"]', '[id^="sp_message_iframe_"]', ".sp_veil"],
    lockClasses: ["sp-message-open"],
  },
  {
    name: "Google Funding Choices",
    // .fc-ab-root is its "you are using an ad blocker" wall, which blockAds can trigger.
    hide: [".fc-consent-root", ".fc-dialog-overlay", ".fc-dialog-container", ".fc-ab-root"],
  },
  {
    name: "Consentmanager",
    hide: ["#cmpbox", "#cmpbox2", ".cmpboxBG", "#cmpwrapper"],
    lockClasses: ["cmp-locked"],
  },
  { name: "Borlabs Cookie", hide: ["#BorlabsCookieBox", "#BorlabsCookieWidget"] },
  {
    name: "CookieScript",
    hide: ["#cookiescript_injected", "#cookiescript_injected_wrapper", "#cookiescript_badge"],
  },
  { name: "Termly", hide: ["#termly-code-snippet-support"] },
  { name: "Axeptio", hide: ["#axeptio_overlay"] },
  { name: "Klaro", hide: [".klaro .cookie-notice", ".klaro .cookie-modal"] },
  {
    name: "tarteaucitron",
    hide: ["#tarteaucitronRoot", "#tarteaucitronAlertBig"],
    lockClasses: ["tarteaucitron-modal-open"],
  },
  { name: "Cookie Information", hide: ["#coiOverlay", "#cookie-information-template-wrapper"] },
  {
    name: "Crownpeak (Evidon)",
    hide: ["#_evidon_banner", "#_evidon-background", ".evidon-banner"],
  },
  { name: "Civic Cookie Control", hide: ["#ccc-notify", "#ccc-overlay", "#ccc-icon"] },
  { name: "Cookie Notice (WordPress)", hide: ["#cookie-notice"] },
  { name: "GDPR Cookie Compliance (WordPress)", hide: ["#moove_gdpr_cookie_info_bar"] },
  { name: "HubSpot", hide: ["#hs-eu-cookie-confirmation"] },
  { name: "Shopify", hide: ["#shopify-pc__banner"] },
  { name: "Ketch", hide: ["#lanyard_root"] },
  {
    name: "cookieconsent (Osano open source, orestbida)",
    hide: [".cc-window", ".cc-banner", ".cc-revoke", "#cc-main", "#cc--main", "#cc_div"],
  },
];

/** Names sites commonly give their own banner, matched as a whole id or a whole class word. */
export const GENERIC_BANNER_NAMES: readonly string[] = [
  "cookie-banner",
  "cookiebanner",
  "cookie_banner",
  "cookies-banner",
  "cookie-consent",
  "cookieconsent",
  "cookie_consent",
  "cookie-notice",
  "cookienotice",
  "cookies-notice",
  "cookie-bar",
  "cookiebar",
  "cookie-popup",
  "cookie-law",
  "cookie-disclaimer",
  "cookie-warning",
  "cookie-alert",
  "gdpr-banner",
  "gdpr-cookie-notice",
  "consent-banner",
  "privacy-banner",
];

/** Accessible-name patterns of consent dialogs (a dialog is not open on a normal page load). */
export const GENERIC_DIALOG_SELECTORS: readonly string[] = [
  '[role="dialog"][aria-label*="cookie" i]',
  '[role="alertdialog"][aria-label*="cookie" i]',
  '[role="dialog"][aria-label*="consent" i]',
  '[role="alertdialog"][aria-label*="consent" i]',
  'dialog[aria-label*="cookie" i]',
  'dialog[aria-label*="consent" i]',
  '[role="region"][aria-label="cookie banner" i]',
];
