import { createRoot } from "react-dom/client";
import { App } from "./App";
import { appStore } from "./state/store";
import "./index.css";

appStore().start();
createRoot(document.getElementById("root")!).render(<App />);
