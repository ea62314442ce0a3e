// "Quantize…" in the model picker: for one model file, every mix of
// core/quantize (quant_policy.h's list, in llama-quantize's order) with the
// size and bits per weight its plan gives (planQuantize, on the job's
// thread), then one quantizeModel() run with progress and cancel. The new
// file goes beside the source (or into outputFolder) as
// `<base>.<TYPE>.gguf`, under a free name (`<base>.<TYPE>-2.gguf`, ...):
// nothing that exists is overwritten. The free disk space is checked first;
// on success the file is added to the library (ModelLibrary::addFile); a
// failure or a cancel leaves no file (the quantizer writes OUT.tmp and
// renames it only when complete).
//
// A source whose weights are already quantized (most downloaded files) can
// only be requantized: each such mix says so (`requantize`), and start()
// needs allowRequantize, as llama-quantize needs --allow-requantize, since
// the result is worse than quantizing from F16 or BF16. A mix that would
// change nothing, or that the quantizer refuses, is listed as unavailable
// with the reason.
//
// Thread-safety: a GUI-thread object; its work runs on a thread of its own
// (low priority, one core left to the rest of the app). cancel() may be
// called from any thread. Destroying the job cancels the run and waits for
// it to stop (within one chunk of rows).
#pragma once

#include <QObject>
#include <QPointer>
#include <QThread>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

#include <atomic>
#include <functional>

class ModelLibrary;

class QuantizeJob : public QObject {
    Q_OBJECT
    QML_ELEMENT
    Q_MOC_INCLUDE("models/ModelLibrary.h")
    Q_PROPERTY(ModelLibrary* library READ library WRITE setLibrary NOTIFY libraryChanged)
    // The model file to quantize; setting it lists the mixes anew.
    Q_PROPERTY(QString source READ source WRITE setSource NOTIFY sourceChanged)
    // Where the result goes; "" (the default) is the source's folder.
    Q_PROPERTY(QString outputFolder READ outputFolder WRITE setOutputFolder NOTIFY outputFolderChanged)
    // One map per mix: name ("Q4_K_M"), fileBytes (estimated file size),
    // sizeText ("98.1 MB"), tensorBytes (planQuantize's bytesOut), bpw,
    // bpwText ("4.89"), fallbacks (tensors whose rows took a fallback type),
    // requantize (already-quantized tensors would be converted), available,
    // reason (why not, or the requantize warning; "" otherwise).
    Q_PROPERTY(QVariantList types READ types NOTIFY typesChanged)
    // Some weights of the source are already quantized.
    Q_PROPERTY(bool sourceQuantized READ sourceQuantized NOTIFY typesChanged)
    // The row of `types` to offer first: Q4_K_M (llama-quantize's usual
    // choice) when it applies, else the first that does; -1 if none.
    Q_PROPERTY(int recommended READ recommended NOTIFY typesChanged)
    Q_PROPERTY(State state READ state NOTIFY stateChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY stateChanged)
    // The run: 0..1 of the output's tensor data, and in words ("Tensor 12 of
    // 30 · 120 MB of 400 MB · 30%"); the mix being written.
    Q_PROPERTY(double progress READ progress NOTIFY progressChanged)
    Q_PROPERTY(QString progressText READ progressText NOTIFY progressChanged)
    Q_PROPERTY(int tensor READ tensor NOTIFY progressChanged)
    Q_PROPERTY(int tensors READ tensors NOTIFY progressChanged)
    Q_PROPERTY(QString runningType READ runningType NOTIFY stateChanged)
    // What went wrong (Failed), or why start() refused; "" otherwise.
    Q_PROPERTY(QString error READ error NOTIFY stateChanged)
    // The outcome in words: the written file and its size, or "cancelled".
    Q_PROPERTY(QString message READ message NOTIFY stateChanged)
    Q_PROPERTY(QString resultPath READ resultPath NOTIFY stateChanged)

public:
    enum State {
        Idle,       // no source
        Estimating, // planning every mix
        Ready,      // types listed; nothing run yet
        Running,
        Done,
        Failed, // the estimate or the run failed: see error
        Cancelled,
    };
    Q_ENUM(State)

    // Bytes free for files in `folder`; -1 when unknown (not checked).
    using FreeSpace = std::function<qint64(const QString& folder)>;
    // Sees every progress report of a run on the job's thread, before it is
    // thinned out for the GUI (tests: cancel at a known tensor).
    using Observer = std::function<void(size_t tensor, size_t tensors)>;

    explicit QuantizeJob(QObject* parent = nullptr);
    ~QuantizeJob() override;

    ModelLibrary* library() const;
    void setLibrary(ModelLibrary* library);
    QString source() const { return m_source; }
    void setSource(const QString& source);
    QString outputFolder() const { return m_outputFolder; }
    void setOutputFolder(const QString& folder);
    QVariantList types() const { return m_types; }
    bool sourceQuantized() const { return m_sourceQuantized; }
    int recommended() const;
    State state() const { return m_state; }
    bool busy() const { return m_state == Estimating || m_state == Running; }
    double progress() const { return m_progress; }
    QString progressText() const { return m_progressText; }
    int tensor() const { return m_tensor; }
    int tensors() const { return m_tensors; }
    QString runningType() const { return m_runningType; }
    QString error() const { return m_error; }
    QString message() const { return m_message; }
    QString resultPath() const { return m_resultPath; }
    void setFreeSpace(FreeSpace f) { m_freeSpace = std::move(f); }
    void setObserver(Observer f) { m_observer = std::move(f); }

    // The file a run of `type` would write now (a free name), "" if none.
    Q_INVOKABLE QString outputPathFor(const QString& type) const;
    // Starts quantizing to `type` (a name of `types`). Returns false, with
    // `error` saying why, when it cannot start: busy, an unknown or
    // unavailable type, a requantize without allowRequantize, a folder that
    // is missing or read-only, too little disk space, no free name.
    Q_INVOKABLE bool start(const QString& type, bool allowRequantize = false);
    // Stops the run (or the estimate); no file is left. Any thread.
    Q_INVOKABLE void cancel();

    // `<base>` of a model file name: without ".gguf", a split suffix
    // ("-00001-of-00003") and a trailing mix name ("-Q4_K_M", ".f16").
    static QString baseName(const QString& fileName);

signals:
    void libraryChanged();
    void sourceChanged();
    void outputFolderChanged();
    void typesChanged();
    void stateChanged();
    void progressChanged();
    // A run ended: Done (the file is being added to the library), Failed or Cancelled.
    void finished();

private:
    struct Outcome;
    void estimate();
    void onEstimated(int serial, const QVariantList& types, bool quantized, const QString& error);
    void onProgress(int tensor, int tensors, qint64 done, qint64 total);
    void onFinished(const Outcome& outcome);
    void setState(State state, const QString& error = {}, const QString& message = {});
    bool refuse(const QString& error);
    QVariantMap typeInfo(const QString& name) const;
    QString folder() const;

    QPointer<ModelLibrary> m_library;
    QString m_source, m_outputFolder;
    QVariantList m_types;
    bool m_sourceQuantized = false;
    State m_state = Idle;
    double m_progress = 0;
    QString m_progressText;
    int m_tensor = 0, m_tensors = 0;
    QString m_runningType, m_error, m_message, m_resultPath;
    int m_serial = 0; // estimates of an older source are dropped
    FreeSpace m_freeSpace;
    Observer m_observer;
    std::atomic<bool> m_cancel{false};
    QThread m_thread;
    QObject* m_worker = nullptr; // lives on m_thread: the context of the posted work
};
