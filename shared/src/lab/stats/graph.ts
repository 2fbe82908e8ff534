/**
 * Connected components of the configurations linked by games, which the rating fits (ratings.ts,
 * ladder.ts) fit one at a time: ratings in different components cannot be compared.
 */

export interface Components {
  /** The component of each node, numbered in the order of each component's lowest node. */
  component: number[];
  /** Each component's nodes, in increasing order. */
  members: number[][];
}

/** The components of the graph on nodes 0..m−1 whose node i links to linked(i). */
export function connectedComponents(m: number, linked: (i: number) => Iterable<number>): Components {
  const component = new Array<number>(m).fill(-1);
  const members: number[][] = [];
  for (let start = 0; start < m; start++) {
    if (component[start] >= 0) continue;
    const label = members.length;
    component[start] = label;
    const stack = [start];
    while (stack.length) {
      for (const j of linked(stack.pop()!)) {
        if (component[j] < 0) {
          component[j] = label;
          stack.push(j);
        }
      }
    }
    members.push([]);
  }
  for (let i = 0; i < m; i++) members[component[i]].push(i);
  return { component, members };
}
