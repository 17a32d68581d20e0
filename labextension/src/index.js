// milab-widgets in JupyterLab: launcher tiles, commands, a "milab" menu and the
// reproduction panel. The server side (routes under /milab/api/) is
// milab_widgets/server; every request goes through ServerConnection, so it carries the
// server's token and XSRF cookie like JupyterLab's own.
import { ILayoutRestorer } from '@jupyterlab/application';
import {
  ICommandPalette,
  MainAreaWidget,
  WidgetTracker
} from '@jupyterlab/apputils';
import { ILauncher } from '@jupyterlab/launcher';
import { IMainMenu } from '@jupyterlab/mainmenu';
import { ServerConnection } from '@jupyterlab/services';
import { LabIcon } from '@jupyterlab/ui-components';
import { Menu, Widget } from '@lumino/widgets';

// Tile icons, drawn in the theme's icon colours (jp-icon3: the launcher's grey).
const svg = body =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><g class="jp-icon3" fill="#616161">${body}</g></svg>`;
const ICONS = {
  lab: new LabIcon({
    name: 'milab:lab',
    svgstr: svg(
      '<path d="M2 5h6v3H2zM9 5h6v3H9zM16 5h6v3h-6zM2 9h20v11H2z" fill-opacity=".9"/>'
    )
  }),
  paper: new LabIcon({
    name: 'milab:paper',
    svgstr: svg(
      '<path d="M5 2h10l4 4v16H5zM14 3v4h4" fill-opacity=".85"/><path d="M8 11h8v1.5H8zM8 14h8v1.5H8zM8 17h5v1.5H8z" fill="#fff"/>'
    )
  }),
  reproduce: new LabIcon({
    name: 'milab:reproduce',
    svgstr: svg(
      '<path d="M12 3a9 9 0 1 0 8.5 6h-2.2A7 7 0 1 1 12 5v3l4-4-4-4z"/><path d="M10 9l6 3-6 3z"/>'
    )
  })
};

const CATEGORY = 'milab';
const POLL_MS = 1000;
const COMMANDS = {
  lab: 'milab:open-lab',
  panel: 'milab:open-panel',
  reproduce: 'milab:reproduce',
  reproducePanel: 'milab:open-reproduce-panel',
  report: 'milab:open-report'
};

/** A request to the milab routes; resolves to the JSON reply or throws its message. */
async function api(path, method = 'GET', body = undefined) {
  const settings = ServerConnection.makeSettings();
  const url = `${settings.baseUrl}milab/api/${path}`;
  const init = { method };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
  }
  const reply = await ServerConnection.makeRequest(url, init, settings);
  const text = await reply.text();
  const data = text ? JSON.parse(text) : {};
  if (!reply.ok) {
    throw new Error(data.message || `${method} ${path}: ${reply.status}`);
  }
  return data;
}

/** Open the notebook a tile stands for and run it, so the lab or panel shows at once. */
async function openAndRun(app, request) {
  const { path } = await api('notebooks', 'POST', request);
  const widget = await app.commands.execute('docmanager:open', {
    path,
    factory: 'Notebook'
  });
  await widget.context.ready;
  await widget.sessionContext.ready;
  app.shell.activateById(widget.id);
  await app.commands.execute('notebook:run-all-cells');
  return widget;
}

/** The reproduction panel: choose papers and mode, Start, per-paper progress, Stop and the
 * report. Its state is the server's job, so it reattaches after a page reload. */
class ReproducePanel extends Widget {
  constructor(app, papers) {
    super();
    this.app = app;
    this.papers = papers;
    this.id = 'milab-reproduce';
    this.title.label = 'milab: reproduce';
    this.title.closable = true;
    this.addClass('milab-reproduce');
    this.timer = null;
    this.watched = null; // the start time of the running job this panel has seen
    // Start and Stop count up; a state asked for before one of them is not shown, since
    // it can arrive after their newer reply (it would clear the rows and stop the polling)
    this.generation = 0;
    this.build();
    this.refresh();
  }

  build() {
    const node = this.node;
    node.innerHTML = '';
    const heading = document.createElement('h2');
    heading.textContent = 'Reproduce the papers';
    const choices = document.createElement('fieldset');
    choices.className = 'milab-papers';
    const legend = document.createElement('legend');
    legend.textContent = 'Papers';
    choices.appendChild(legend);
    this.boxes = this.papers.map(paper => {
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = true;
      box.value = paper.short;
      label.append(box, ` ${paper.short}`);
      label.title = paper.citation;
      choices.appendChild(label);
      return box;
    });
    const mode = document.createElement('select');
    mode.className = 'milab-mode';
    for (const [value, text] of [
      ['quick', 'quick (minutes per paper)'],
      ['full', "full (the papers' own protocols: hours)"]
    ]) {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = text;
      mode.appendChild(option);
    }
    this.mode = mode;
    this.startButton = this.button('Start', 'milab-start jp-mod-accept', () => this.start());
    this.stopButton = this.button('Stop', 'milab-stop jp-mod-warn', () => this.stop());
    this.reportButton = this.button('Open the report', 'milab-report', () =>
      this.openReport()
    );
    const controls = document.createElement('div');
    controls.className = 'milab-controls';
    controls.append(mode, this.startButton, this.stopButton, this.reportButton);
    this.status = document.createElement('p');
    this.status.className = 'milab-status';
    this.table = document.createElement('table');
    this.table.className = 'milab-progress';
    this.logView = document.createElement('pre');
    this.logView.className = 'milab-log';
    node.append(heading, choices, controls, this.status, this.table, this.logView);
  }

  button(text, className, onClick) {
    const button = document.createElement('button');
    button.textContent = text;
    button.className = `jp-Button jp-mod-styled ${className}`;
    button.addEventListener('click', onClick);
    return button;
  }

  async start(papers = undefined, full = undefined) {
    const chosen = papers || this.boxes.filter(b => b.checked).map(b => b.value);
    if (!chosen.length) {
      this.status.textContent = 'Choose at least one paper.';
      return;
    }
    const isFull = full === undefined ? this.mode.value === 'full' : full;
    this.generation += 1; // a state asked for before this start is out of date
    try {
      const { job } = await api('reproduce', 'POST', { papers: chosen, full: isFull });
      this.show(job);
      this.poll();
    } catch (error) {
      this.status.textContent = `Not started: ${error.message}`;
    }
  }

  async stop() {
    this.generation += 1;
    try {
      const { job } = await api('reproduce', 'DELETE');
      this.show(job);
    } catch (error) {
      this.status.textContent = `Stop: ${error.message}`;
    }
  }

  async openReport() {
    if (this.report) {
      await this.app.commands.execute('docmanager:open', { path: this.report });
    }
  }

  poll() {
    if (this.timer === null) {
      this.timer = window.setInterval(() => this.refresh(), POLL_MS);
    }
  }

  async refresh() {
    const generation = this.generation;
    try {
      const { job } = await api('reproduce');
      if (generation !== this.generation) {
        return; // asked before a Start or Stop whose own reply is newer
      }
      this.show(job);
      if (job && job.running) {
        this.watched = job.started;
        this.poll();
      } else if (this.timer !== null) {
        window.clearInterval(this.timer);
        this.timer = null;
      }
      // a run this panel watched has finished and written its report: open it once
      if (job && !job.running && job.report && this.watched === job.started) {
        this.watched = null;
        if (!job.stop_requested) {
          await this.openReport();
        }
      }
    } catch (error) {
      this.status.textContent = `Cannot reach the milab server extension: ${error.message}`;
    }
  }

  show(job) {
    const running = Boolean(job && job.running);
    this.startButton.disabled = running;
    this.stopButton.disabled = !running;
    // while a run goes, the choices show what it runs and cannot be changed
    for (const box of this.boxes) {
      if (running) {
        box.checked = job.papers.includes(box.value);
      }
      box.disabled = running;
    }
    if (running) {
      this.mode.value = job.full ? 'full' : 'quick';
    }
    this.mode.disabled = running;
    this.report = job && job.report;
    this.reportButton.disabled = !this.report;
    if (!job) {
      this.status.textContent = 'No reproduction has run in this server yet.';
      this.table.innerHTML = '';
      return;
    }
    const mode = job.full ? 'full' : 'quick';
    let state;
    if (job.running) {
      state = job.stop_requested ? 'stopping' : 'running';
    } else if (job.stop_requested) {
      state = 'stopped (partial output is marked interrupted)';
    } else {
      state = job.exit_code === 0 ? 'finished' : `ended with exit code ${job.exit_code}`;
    }
    this.status.textContent = `${mode} run of ${job.papers.join(', ')}: ${state}`;
    this.status.dataset.state = job.running ? 'running' : 'ended';
    this.table.innerHTML = '';
    const head = this.table.insertRow();
    for (const text of ['paper', 'status', 'detail', 'skipped data sets']) {
      const cell = document.createElement('th');
      cell.textContent = text;
      head.appendChild(cell);
    }
    for (const paper of job.per_paper) {
      const row = this.table.insertRow();
      row.dataset.paper = paper.paper;
      row.dataset.status = paper.status;
      for (const text of [
        paper.paper,
        paper.status,
        paper.detail,
        paper.skipped.length ? paper.skipped.join('; ') : 'none'
      ]) {
        row.insertCell().textContent = text;
      }
    }
    this.logView.textContent = job.log.join('\n');
  }

  dispose() {
    if (this.timer !== null) {
      window.clearInterval(this.timer);
    }
    super.dispose();
  }
}

const plugin = {
  id: 'milab-widgets-jupyterlab:plugin',
  description: 'milab-widgets: launcher tiles, commands, a menu and the reproduction panel.',
  autoStart: true,
  requires: [ILauncher],
  optional: [ICommandPalette, IMainMenu, ILayoutRestorer],
  activate: async (app, launcher, palette, mainMenu, restorer) => {
    const tracker = new WidgetTracker({ namespace: 'milab' });
    let papers = [];
    try {
      papers = await api('papers');
    } catch (error) {
      console.error('milab: the server extension did not answer', error);
    }

    const reproducePanel = () => {
      let main = tracker.find(() => true);
      if (!main || main.isDisposed) {
        main = new MainAreaWidget({ content: new ReproducePanel(app, papers) });
        main.id = 'milab-reproduce-main';
        main.title.label = 'milab: reproduce';
        main.title.closable = true;
        tracker.add(main);
        app.shell.add(main, 'main');
      }
      app.shell.activateById(main.id);
      return main;
    };

    app.commands.addCommand(COMMANDS.lab, {
      label: 'Lab',
      icon: ICONS.lab,
      caption: "Every paper's panel in one tabbed lab (a notebook, run at once)",
      execute: () => openAndRun(app, { kind: 'lab' })
    });
    app.commands.addCommand(COMMANDS.panel, {
      label: args => (args.paper ? String(args.paper) : 'Open a paper\'s panel'),
      icon: ICONS.paper,
      caption: args => {
        const paper = papers.find(p => p.short === args.paper);
        return paper ? paper.citation : "A paper's panel";
      },
      execute: args => openAndRun(app, { kind: 'panel', paper: args.paper })
    });
    app.commands.addCommand(COMMANDS.reproducePanel, {
      label: 'Reproduce the papers',
      icon: ICONS.reproduce,
      caption: "Regenerate the papers' experiments with progress and Stop",
      execute: () => reproducePanel()
    });
    app.commands.addCommand(COMMANDS.reproduce, {
      label: args => {
        const which = args.papers ? args.papers.join(', ') : 'every paper';
        return `Reproduce ${which} (${args.full ? 'full' : 'quick'})`;
      },
      execute: async args => {
        const main = reproducePanel();
        await main.content.start(args.papers, Boolean(args.full));
        return main;
      }
    });
    app.commands.addCommand(COMMANDS.report, {
      label: 'Open the last report',
      execute: () =>
        app.commands.execute('docmanager:open', { path: 'milab-output/REPORT.html' })
    });

    launcher.add({ command: COMMANDS.lab, category: CATEGORY, rank: 0 });
    papers.forEach((paper, index) =>
      launcher.add({
        command: COMMANDS.panel,
        args: { paper: paper.short },
        category: CATEGORY,
        rank: index + 1
      })
    );
    launcher.add({
      command: COMMANDS.reproducePanel,
      category: CATEGORY,
      rank: papers.length + 1
    });

    const paletteItems = [
      { command: COMMANDS.lab },
      ...papers.map(paper => ({ command: COMMANDS.panel, args: { paper: paper.short } })),
      { command: COMMANDS.reproducePanel },
      { command: COMMANDS.reproduce, args: { full: false } },
      { command: COMMANDS.reproduce, args: { full: true } },
      ...papers.map(paper => ({
        command: COMMANDS.reproduce,
        args: { papers: [paper.short], full: false }
      })),
      { command: COMMANDS.report }
    ];
    if (palette) {
      for (const item of paletteItems) {
        palette.addItem({ ...item, category: CATEGORY });
      }
    }
    if (mainMenu) {
      const menu = new Menu({ commands: app.commands });
      menu.id = 'milab-menu';
      menu.title.label = 'milab';
      for (const item of paletteItems) {
        menu.addItem(item);
      }
      mainMenu.addMenu(menu, true, { rank: 90 });
    }
    if (restorer) {
      restorer.restore(tracker, {
        command: COMMANDS.reproducePanel,
        name: () => 'reproduce'
      });
    }
  }
};

export default plugin;
