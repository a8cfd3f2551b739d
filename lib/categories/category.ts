/** A category tag of campaigns and vouchers. */
export interface Category {
  id: string;
  name: string;
  /** Voucherify orders categories by hierarchy; categories made implicitly from a name get 0. */
  hierarchy: number;
  createdAt: string;
  updatedAt: string | null;
}
