/** Orders document sections as the document does: "2" < "2.1" < "2.5" < "4" < "4.1" < "8". */
export function compareSections(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return a.localeCompare(b);
}

/** The document's section titles (its headings), so a reader sees "§4.1 Update a fiat account", not a bare number. */
export const SECTION_TITLES: Readonly<Record<string, string>> = {
  '1': 'What the service does',
  '2': 'Resources and their fields',
  '2.1': 'FiatAccount (response of the update)',
  '2.2': 'fiat_network_instructions',
  '2.3': 'fiat_account_owner',
  '2.4': 'Address object (fiat account)',
  '2.5': 'Identity (response of creation)',
  '2.6': 'person_details',
  '3': 'States and transitions',
  '4': 'Endpoints',
  '4.1': 'Update a fiat account',
  '4.2': 'Create an identity',
  '5': 'Authentication',
  '6': 'Events',
  '7': 'Errors',
  '8': 'Limits',
  '9': 'Versioning',
};

/** `§4.1 Update a fiat account`, or `§4.1` for a section the table does not know. */
export const sectionWithTitle = (section: string): string => `§${section}${SECTION_TITLES[section] ? ` ${SECTION_TITLES[section]}` : ''}`;
