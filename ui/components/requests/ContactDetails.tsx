import { formatContactNumber } from '../../../server/domain/accountRules.js';
import type { RequestRecord } from '../../../server/domain/requestShape.js';
import { DetailList } from './DetailList.js';

export type Contact = Pick<
  RequestRecord,
  'representativeName' | 'contactNumber' | 'emailAddress' | 'companyName' | 'clientClassification' | 'ltoNumber'
>;

/**
 * The client's contact details a request carries: on the submission form, and on the request as read;
 * with the company address from the client's profile when `address` is given (null: none on file).
 */
export function ContactDetails({ contact, address }: { contact: Contact; address?: string | null }) {
  return (
    <DetailList
      items={[
        ['Username', contact.representativeName],
        ['Contact Number', formatContactNumber(contact.contactNumber) || contact.contactNumber],
        ['Email Address', contact.emailAddress],
        ['Company Name', contact.companyName],
        ['Client Classification', contact.clientClassification],
        ['LTO Number', contact.ltoNumber],
        ...(address === undefined ? [] : [['Company Address', address ?? 'Not on file'] as const]),
      ]}
    />
  );
}
