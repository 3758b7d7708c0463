// The one runtime global the models use: present in Node ≥ 17 and every current browser, declared here
// because this package compiles without the DOM or Node type libraries.
declare function structuredClone<T>(value: T): T;
