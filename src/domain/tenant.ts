/** The minimum a domain service needs to know about its caller: which company (tenant) it acts for. */
export interface Tenant {
  companyId: number;
}
