// proxy-from-env 2 ships no types: its one function, as its README gives it.
declare module 'proxy-from-env' {
  /** The proxy's URL for `url` from the *_PROXY and NO_PROXY variables, or '' when it goes directly. */
  export function getProxyForUrl(url: string | URL): string;
}
