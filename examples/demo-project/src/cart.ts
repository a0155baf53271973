export interface Item {
  name: string;
  price: number;
  quantity: number;
}

// total returns the cart total. Bug: it ignores quantities.
export function total(items: Item[]): number {
  return items.reduce((sum, item) => sum + item.price, 0);
}
